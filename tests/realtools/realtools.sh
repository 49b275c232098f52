#!/usr/bin/env bash
# realtools.sh COSIM SOURCE_ROOT [short|full] [REPEATS]
#
# cosim's predictions held against the real tools (docs/real-tools.md):
# for each tool and setting, on the article's stall (500 ms every 5 s) and
# the book's (10 ms every second):
#   1. a no-stall baseline of the tool against `cosim target` (the
#      service time cosim is given: `cosim baseline`);
#   2. the real run against `cosim target` playing the stall, which logs
#      the windows as it held them;
#   3. the target's own check: every planned window held, starting and
#      lasting within the hold tolerance; when not, the machine was too
#      loaded to hold the stall and the tool is NOT judged (said aloud,
#      never a failure: 8 processes on 2 cores cannot hold a 10 ms stop);
#   4. `cosim compare` of the tool's output with cosim's prediction from the
#      held windows (`kind = file`) and the baseline;
#   5. the figures the stalls decide judged within tolerances from repeated
#      runs (docs/real-tools.md): the max, the count over 100 ms where the
#      tool gives it, p99 and p99.9 where cosim compare says the stalls
#      decide them (within their predicted range over the rank's count
#      noise), and the count of requests; the rest reported.
# A missing tool is a SKIP said aloud. Traffic: 127.0.0.1 only, each run
# bounded by the tool's own duration or request count, the target stopping
# by itself. short: one run each, about a minute and a half (the suite);
# full: REPEATS runs each (bench/realtools.sh), a table of medians and
# ranges on stdout.
set -u
COSIM=$1
ROOT=$2
MODE=${3:-short}
REPEATS=${4:-1}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cosim-realtools.XXXXXX")
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$WORK"' EXIT
# A disagreement's files (the tool's output, the held windows, the
# prediction) are kept here, named in the message: the case can be
# reproduced with `cosim compare` after the run.
KEEP=${COSIM_REALTOOLS_KEEP:-${TMPDIR:-/tmp}/cosim-realtools-kept}
# wrk prints its whole histogram with this script, so that its exit-time
# correction can be undone (docs/real-tools.md)
WRK_SCRIPT=$("$COSIM" baseline --wrk-script 2>/dev/null)
fails=0
judged=0
HOLD_RLATE=0
# Hold tolerance: a window that starts later, or lasts longer or shorter,
# than planned by more than a tenth of its length was not held (a quiet
# machine holds a window to about 0.1 ms; docs/real-tools.md). cosim is
# given the windows as held, so this guards the machine's quiet, not the
# windows' places: the replies' lateness is the other guard (below).

say() { printf '%s\n' "$*"; }

# start_target SCENARIO DURATION LOG [PHASE_PERIOD]: cosim target on a free
# port; sets PORT and TPID, or returns 1.
start_target() {
    : >"$WORK/target.out"
    "$COSIM" target "$1" --port 0 --duration "$2" --stall-log "$3" --wait 20s ${4:+--phase-period "$4"} \
        >"$WORK/target.out" 2>&1 &
    TPID=$!
    PORT=
    for _ in $(seq 100); do
        PORT=$(grep -o '127\.0\.0\.1:[0-9]*' "$WORK/target.out" | head -1 | cut -d: -f2)
        [ -n "$PORT" ] && return 0
        kill -0 "$TPID" 2>/dev/null || break
        sleep 0.05
    done
    say "target did not start: $(cat "$WORK/target.out")"
    return 1
}

# stop_target: let it end (it stops at its duration), or end it.
stop_target() {
    for _ in $(seq 100); do kill -0 "$TPID" 2>/dev/null || break; sleep 0.1; done
    kill "$TPID" 2>/dev/null
    wait "$TPID" 2>/dev/null
}

# scenario FILE DURATION STALL: the target's scenario (100 us a request,
# one worker) with the stall: article | book | none.
scenario() {
    {
        printf '[scenario]\nduration = %s\n[service]\ndistribution = constant\ntime = 100us\n' "$2"
        case $3 in
        article) printf '[stall gc]\nkind = periodic\nlength = 500ms\nperiod = 5s\nfirst = 2s\n' ;;
        # the book's stall 2.5 ms before a tick of a 10 ms grid (hey -q 100)
        # and between two of a 5 ms one (httperf --rate 200), whose ticks
        # start with the first connection: a tick 0.1 ms off the window's
        # edge would fall in or out of it by the machine's jitter alone
        # (with first = 500ms, a tick at each window's start: hey -q's p99
        # 1.1 ms real against 10.16 predicted, docs/real-tools.md)
        book) printf '[stall gc]\nkind = periodic\nlength = 10ms\nperiod = 1s\nfirst = 507500us\n' ;;
        esac
        printf '[tester t]\nkind = closed\n'
    } >"$1"
}

# held LENGTH_NS: the target's summary says every planned window was held
# (started and lasted within a tenth of LENGTH_NS of the plan) and its replies were
# never late by a fifth of the stall's length (a longer hiccup of the
# machine would decide the figures instead of the stall); else prints why.
held() {
    local line planned heldn late err rlate sched
    line=$(grep '^summary:' "$WORK/target.out")
    planned=$(sed -n 's/.*windows_planned=\([0-9]*\).*/\1/p' <<<"$line")
    heldn=$(sed -n 's/.*windows_held=\([0-9]*\).*/\1/p' <<<"$line")
    late=$(sed -n 's/.*start_late_max_ns=\([0-9-]*\).*/\1/p' <<<"$line")
    err=$(sed -n 's/.*length_error_max_ns=\([0-9-]*\).*/\1/p' <<<"$line")
    rlate=$(sed -n 's/.*reply_late_max_ns=\([0-9-]*\).*/\1/p' <<<"$line")
    sched=$(sed -n 's/.* sched=\([a-z]*\).*/\1/p' <<<"$line")
    err=${err#-}
    if [ -z "$line" ] || [ "$planned" != "$heldn" ] || [ "$planned" = 0 ] || [ "$late" -gt $(($1 / 10)) ] ||
        [ "$err" -gt $(($1 / 10)) ] || [ "$rlate" -gt $(($1 / 5)) ]; then
        HOLD_WHY="windows planned ${planned:-?}, held ${heldn:-?}, start late by ${late:-?} ns, length off by ${err:-?} ns, a reply late by ${rlate:-?} ns; the target's scheduling ${sched:-?}"
        return 1
    fi
    HOLD_WHY="held: start late by at most $((late / 1000)) us, length off by at most $((err / 1000)) us, replies late by at most $((rlate / 1000)) us"
    HOLD_RLATE=$rlate
    return 0
}

# run_tool TOOL SETTING PORT DURATION_S OUT: the tool's real run.
run_tool() {
    local url="http://127.0.0.1:$3/"
    case "$1 $2" in
    "wrk c1") timeout 60 wrk -t1 -c1 -d"$4"s --latency ${WRK_SCRIPT:+-s "$WRK_SCRIPT"} "$url" >"$5" 2>&1 ;;
    "wrk c10") timeout 60 wrk -t1 -c10 -d"$4"s --latency ${WRK_SCRIPT:+-s "$WRK_SCRIPT"} "$url" >"$5" 2>&1 ;;
    "hey c1") timeout 60 hey -z "$4"s -c 1 -o csv "$url" >"$5" 2>&1 ;;
    "hey c2q100") timeout 60 hey -z "$4"s -c 2 -q 100 -o csv "$url" >"$5" 2>&1 ;;
    "ab kc1") timeout 60 ab -q -k -c 1 -t "$4" -g "$5" "$url" >"$5.txt" 2>&1 ;;
    "httperf rate200") timeout 60 httperf -v -v --hog --server 127.0.0.1 --port "$3" --rate 200 \
        --num-conns $((200 * $4)) --timeout 5 >"$5" 2>&1 ;;
    esac
}

# busy_of WRK_OUT: the server's busy time per request of a wrk saturation
# run (run time / requests), in ns.
busy_of() {
    local out
    out=$("$COSIM" baseline wrk "$1" 2>&1) || return 1
    { sed -n 's/.*run time \/ requests \([0-9]*\) ns.*/\1/p' <<<"$out"; sed -n 's/^time = \([0-9]*\)ns$/\1/p' <<<"$out"; } | head -1
}

# baseline_of TOOL SETTING OUT SERVICE_FILE: the [service] lines for the
# prediction, from the tool's no-stall run (docs/real-tools.md: which).
# wrk: run time / requests (its busy time per request, the machine's
# hiccups averaged in, not drawn one by one as service times); hey -c 1:
# its Response-delay times with its own time as client_time; hey -q: the
# server's busy time of a saturation run (OUT.wrk) and client_time = hey
# -c 1's mean response time (OUT) - that busy time.
baseline_of() {
    case "$1 $2" in
    "wrk c1" | "wrk c10")
        local busy
        busy=$(busy_of "$3")
        [ -n "$busy" ] && printf 'distribution = constant\ntime = %sns\n' "$busy" ;;
    "hey c1") "$COSIM" baseline hey "$3" >"$4.values" 2>/dev/null &&
        printf 'distribution = empirical\nfile = %s\n' "$4.values" &&
        sed -n 's/^# \(client_time = [0-9]*ns\).*/# \1/p' "$4.values" ;;
    "hey c2q100")
        local busy
        busy=$(busy_of "$3.wrk")
        [ -n "$busy" ] && "$COSIM" baseline hey "$3" --busy "${busy}ns" 2>/dev/null | grep -v '^# cosim' ;;
    "ab kc1") "$COSIM" baseline ab "$3.txt" ;;
    "httperf rate200") "$COSIM" baseline wrk "$3" 2>/dev/null ;;
    esac
}

# tester_of TOOL SETTING: the [tester] and [scenario] lines of the prediction.
tester_of() {
    case "$1 $2" in
    "wrk c1") printf '[tester real]\nprofile = wrk\nusers = 1\n' ;;
    "wrk c10") printf '[tester real]\nprofile = wrk\nusers = 10\n' ;;
    "hey c1") printf '[tester real]\nprofile = hey\nusers = 1\n' ;;
    "hey c2q100") printf '[tester real]\nprofile = hey_q\nusers = 2\nrate = 200/s\n' ;;
    "ab kc1") printf '[tester real]\nprofile = ab\nusers = 1\n' ;;
    "httperf rate200") printf '[tester real]\nprofile = httperf\nrate = 200/s\nrequests = %d\n' $((200 * $3)) ;;
    esac
}

# within REAL PRED REL_PERCENT ABS: |real - pred| <= rel% of pred + abs
within() {
    local d=$(($1 - $2))
    d=${d#-}
    [ "$d" -le $(($2 * $3 / 100 + $4)) ]
}

# take_baseline TOOL SETTING DIR: the no-stall baseline into DIR/service.txt
# (httperf's open loop needs the server's busy time: a saturation run of
# wrk -c10). 1 after saying why when there is none.
take_baseline() {
    local b=$3
    scenario "$b/none.ini" 10s none
    start_target "$b/none.ini" 10s "$b/none.csv" || return 1
    case "$1 $2" in
    "httperf rate200") run_tool wrk c10 "$PORT" 2 "$b/base.out" ;;
    "hey c2q100")
        run_tool wrk c10 "$PORT" 2 "$b/base.out.wrk"
        run_tool hey c1 "$PORT" 2 "$b/base.out" ;;
    *) run_tool "$1" "$2" "$PORT" 2 "$b/base.out" ;;
    esac
    kill "$TPID" 2>/dev/null
    stop_target
    baseline_of "$1" "$2" "$b/base.out" "$b/base" >"$b/service.txt" || {
        say "FAIL $1 $2: no baseline from $(head -c 300 "$b/base.out")"
        return 1
    }
}

# COSIM_REALTOOLS_TOOLS narrows a campaign (bench/realtools.sh) to some of them
tools=${COSIM_REALTOOLS_TOOLS:-"wrk:c1 wrk:c10 hey:c1 hey:c2q100 ab:kc1 httperf:rate200"}
stalls="article book"
if [ "$MODE" = full ]; then dur=11; else dur=3; fi
results="$WORK/results"
: >"$results"

for ts in $tools; do
    tool=${ts%%:*}
    setting=${ts#*:}
    if ! command -v "$tool" >/dev/null; then
        say "SKIP $tool $setting: $tool is not installed (Debian: apt-get install $tool, or apache2-utils for ab)"
        continue
    fi
    if [ "$tool" = httperf ] && ! command -v wrk >/dev/null; then
        say "SKIP httperf $setting: its baseline (the server's busy time) needs a saturation run of wrk"
        continue
    fi
    for rep in $(seq "$REPEATS"); do
        b="$WORK/$tool-$setting-$rep"
        mkdir -p "$b"
        take_baseline "$tool" "$setting" "$b" || { fails=$((fails + 1)); continue; }
        for stall in $stalls; do
            for attempt in 1 2; do
                d="$b/$stall"
                mkdir -p "$d"
                if [ "$stall" = article ]; then len=500000000; else len=10000000; fi
                # 2. the real run against the stall; the target ended (SIGTERM:
                #    it writes its log) once the tool is done
                scenario "$d/stall.ini" "$((dur + 1))s" "$stall"
                # hey -q: each worker's ticker has the period 1 / q = 10 ms;
                # the target measures where its requests fall in it
                period=
                [ "$tool $setting" = "hey c2q100" ] && period=10ms
                [ "$tool $setting" = "httperf rate200" ] && period=5ms
                start_target "$d/stall.ini" "$((dur + 1))s" "$d/held.csv" $period || { fails=$((fails + 1)); break; }
                run_tool "$tool" "$setting" "$PORT" "$dur" "$d/real.out"
                kill "$TPID" 2>/dev/null
                stop_target
                cp "$WORK/target.out" "$d/target.out"
                # wrk's exit-time correction undone (cosim baseline wrk on
                # the histogram the script printed): one value a request,
                # whatever the machine's load (an exact rule, judged always)
                if [ "$tool" = wrk ] && [ -n "$WRK_SCRIPT" ]; then
                    undo=$("$COSIM" baseline wrk "$d/real.out" 2>&1 >/dev/null | grep 'correction undone')
                    rec=$(sed -n 's/.*, \([0-9]*\) recorded, for \([0-9]*\) requests and \([0-9]*\) timeouts.*/\1 \2 \3/p' <<<"$undo")
                    read -r nrec nreq ntmo <<<"$rec"
                    if [ -z "$rec" ] || { [ "$ntmo" = 0 ] && [ "$nrec" != "$nreq" ]; }; then
                        say "FAIL $tool $setting $stall: wrk's correction not undone to one value a request: ${undo:-no histogram in $d/real.out}"
                        fails=$((fails + 1))
                    else
                        say "ok $tool $setting $stall: wrk's correction undone: $nrec values for $nreq requests ($ntmo timeouts)"
                    fi
                fi
                # 3. did the target hold its stalls?
                if ! held "$len"; then
                    say "NOT JUDGED $tool $setting $stall: the machine was too loaded to hold the stall ($HOLD_WHY)"
                    echo "$tool $setting $stall notheld" >>"$results"
                    break
                fi
                # 4. the prediction from the held windows and the baseline.
                # hey -q: the target also measured where the densest arrivals
                # fall in a worker's 10 ms tick (reported, not used: the two
                # workers' tickers need not share a phase; moving the windows
                # by it made 5 of 8 loaded runs' predictions worse, while
                # cosim's grid, a tick at each window's start, matched them:
                # docs/real-tools.md, "Known disagreements")
                client=$(sed -n 's/^# client_time = \([0-9]*\)ns.*/\1/p' "$b/service.txt")
                phase=
                [ -n "$period" ] && phase=$(sed -n 's/.*arrival_phase_ns=\([0-9]*\).*/\1/p' "$d/target.out")
                # httperf: its grid is not where its first connection was.
                # Its rate timer fires on the ticks of a 1 ms timer wheel
                # (src/timer.c timer_tick, TIMER_INTERVAL) that its select
                # loop reaches up to 1 ms late, so every arrival after the
                # first sits near one phase of the 5 ms period, 0.4 to 4.8
                # ms after the first connection in twenty runs (the target's
                # clock zero). The profile's grid starts at 0, so the
                # windows are moved back by the measured phase to meet the
                # grid as they met the real arrivals (one process, one grid:
                # unlike hey -q's two workers). The arrivals jitter around
                # it, and one at a window's start waits it whole where one a
                # little earlier waits nothing: the prediction is made at 11
                # phases across the arrivals' spread (all but 0.1% of them,
                # the target's arrival_early_ns .. arrival_late_ns) and each
                # figure's range is the union of theirs (compare.txt: the
                # measured phase's line, its LOW and HIGH widened)
                shifts=0
                if [ "$tool $setting" = "httperf rate200" ] && [ -n "$phase" ]; then
                    early=$(sed -n 's/.*arrival_early_ns=\([0-9]*\).*/\1/p' "$d/target.out")
                    late=$(sed -n 's/.*arrival_late_ns=\([0-9]*\).*/\1/p' "$d/target.out")
                    shifts="$phase"
                    for k in $(seq 0 10); do
                        shifts="$shifts $((phase - ${early:-0} + k * (${early:-0} + ${late:-0}) / 10))"
                    done
                fi
                cmp_failed=
                n=0
                for shift in $shifts; do
                    awk -F, -v ph="$shift" '/^[0-9]/ {sub(/ns$/, "", $1); $1 = sprintf("%.0fns", $1 - ph)} {print}' \
                        OFS=, "$d/held.csv" >"$d/held-$n.csv"
                    {
                        printf '[scenario]\nduration = %ss\n' "$dur"
                        [ "$tool" = ab ] && printf 'rank_rule = sorted_index\nin_flight_at_end = drop\n'
                        printf '[service]\n'
                        grep -v '^#' "$b/service.txt"
                        printf '[stall held]\nkind = file\nfile = held-%s.csv\n' "$n"
                        tester_of "$tool" "$setting" "$dur"
                        [ -n "$client" ] && printf 'client_time = %sns\n' "$client"
                    } >"$d/predict-$n.ini"
                    if ! "$COSIM" compare --raw "$d/predict-$n.ini" "real=$d/real.out" >"$d/compare-$n.txt" \
                        2>"$d/compare.err"; then
                        cmp_failed=1
                        break
                    fi
                    n=$((n + 1))
                done
                if [ -n "$cmp_failed" ]; then
                    say "FAIL $tool $setting $stall: cosim compare: $(cat "$d/compare.err")"
                    fails=$((fails + 1))
                    break
                fi
                cp "$d/predict-0.ini" "$d/predict.ini"
                # each figure: the first prediction's line (the measured
                # phase's), its range the union of every prediction's
                awk 'FNR == NR {key = $1 " " $2; line[key] = $0; lo[key] = $5; hi[key] = $6; by[key] = $7; order[++n] = key; next}
                     {key = $1 " " $2
                      if ($5 != "-" && ($5 + 0 < lo[key] + 0 || lo[key] == "-")) lo[key] = $5
                      if ($4 != "-" && lo[key] != "-" && $4 + 0 < lo[key] + 0) lo[key] = $4
                      if ($6 != "-" && ($6 + 0 > hi[key] + 0 || hi[key] == "-")) hi[key] = $6
                      if ($4 != "-" && hi[key] != "-" && $4 + 0 > hi[key] + 0) hi[key] = $4
                      if ($7 == "stalls") by[key] = "stalls"}
                     END {for (i = 1; i <= n; i++) {k = order[i]; split(line[k], f, " ")
                          printf "%s %s %s %s %s %s %s\n", f[1], f[2], f[3], f[4], lo[k], hi[k], by[k]}}' \
                    "$d/compare-0.txt" "$d"/compare-*.txt >"$d/compare.txt"
                while read -r _ fig rv pv lo hi by; do
                    echo "$tool $setting $stall $fig $rv $pv $by $lo $hi" >>"$results"
                done <"$d/compare.txt"
                # 5. judge what the stalls decide
                judged=$((judged + 1))
                verdict=ok
                why=
                abs_tol=$((len / 4 < 5000000 ? len / 4 : 5000000))
                while read -r _ fig rv pv lo hi by; do
                    [ "$rv" = - ] && continue
                    case "$fig" in
                    # a percentile the stalls decide (cosim compare: its
                    # predicted range over ceil(sqrt(m)) ranks either side
                    # reaches above the no-stall run's largest value): within
                    # that range, widened by 10% + a quarter of the stall (at
                    # most 5 ms: the target's hold and the tool's own time) +
                    # the latest reply the target measured in this run (a
                    # reply the machine delayed may be a victim's). On a
                    # cliff the range spans it: hey -c2 -q100's p99 on the
                    # book's stall, 22 victims of 2,200, whichever side a
                    # machine's hiccup puts it
                    # The max too, always (a window meets a request in every
                    # run here): its range is the predicted second largest to
                    # the largest (and, for httperf, every arrival phase's)
                    p99 | p99.9 | max)
                        if { [ "$by" = stalls ] || [ "$fig" = max ]; } &&
                            { [ "$rv" -lt $((lo - lo / 10 - abs_tol - HOLD_RLATE)) ] ||
                                [ "$rv" -gt $((hi + hi / 10 + abs_tol + HOLD_RLATE)) ]; }; then
                            verdict=FAIL
                            why="$why $fig real $rv outside the predicted $lo..$hi (tolerance 10% + $((abs_tol / 1000)) us + $((HOLD_RLATE / 1000)) us);"
                        fi ;;
                    # the requests of a rate's schedule (hey -q's ticks,
                    # httperf's grid), to 1% + 2: the campaigns' largest
                    # difference 4 of 2,006. A closed loop's count is
                    # reported, not judged: it is the run's time over the
                    # machine's cycle, and the machine's speed moves between
                    # the baseline and the run by more than the stall's share
                    # (hey -c1 on the book's stall: 44,700 real against
                    # 33,016 predicted, where the stall takes 1% of the time)
                    count)
                        case "$tool $setting" in
                        "hey c2q100" | "httperf rate200")
                            within "$rv" "$pv" 1 2 ||
                                { verdict=FAIL; why="$why count real $rv predicted $pv (tolerance 1% + 2);"; } ;;
                        esac ;;
                    esac
                    case "$stall $fig" in
                    # the count over 100 ms: the stall's victims (article only:
                    # the book's 10 ms stall puts none over 100 ms). Not wrk's
                    # (from its whole histogram): its count over 100 ms is the
                    # exit-time backfill, (500 - 100) ms / I values a stall with
                    # I = run time / (requests / connections), so it follows
                    # the machine's speed in that run as much as the stall (a
                    # loaded run: 1,279 real against 1,906 predicted, I 313 us
                    # against 210); reported, not judged
                    "article over") [ "$tool" = wrk ] || within "$rv" "$pv" 20 3 ||
                        { verdict=FAIL; why="$why over real $rv predicted $pv;"; } ;;
                    esac
                done <"$d/compare.txt"
                [ -n "$phase" ] && [ "$period" = 10ms ] && HOLD_WHY="$HOLD_WHY; client_time $((${client:-0} / 1000)) us, arrivals at $((phase / 1000)) us in the 10 ms tick"
                [ -n "$phase" ] && [ "$period" = 5ms ] && HOLD_WHY="$HOLD_WHY; arrivals at $((phase / 1000)) us in the 5 ms period, all but 0.1% from $((${early:-0} / 1000)) us before to $((${late:-0} / 1000)) us after: predicted across them"
                say "$verdict $tool $setting $stall (run $rep): $HOLD_WHY;$why"
                if [ "$verdict" != ok ]; then
                    sed 's/^/    /' "$d/compare.txt"
                    mkdir -p "$KEEP" && cp -r "$d" "$KEEP/$tool-$setting-$rep-$stall-$attempt" &&
                        cp "$b/service.txt" "$b"/base.* "$KEEP/$tool-$setting-$rep-$stall-$attempt/" 2>/dev/null &&
                        sed -i "s|$b/|./|" "$KEEP/$tool-$setting-$rep-$stall-$attempt/predict.ini"
                    say "    (files kept in $KEEP/$tool-$setting-$rep-$stall-$attempt: cosim compare predict.ini real=real.out)"
                fi
                # a disagreement in the suite is confirmed by a second real run
                # before it fails (a hiccup the target cannot see, the tool's
                # own process stopped, rarely comes twice)
                # with a new baseline too: a hiccup of the machine in the
                # no-stall run is drawn as a service time (hey -c1's
                # empirical values: one of 53 ms made a predicted max of 63.8
                # ms against 10.4 real, in both runs on the same baseline)
                if [ "$verdict" = FAIL ] && [ "$MODE" = short ] && [ "$attempt" = 1 ]; then
                    say "  ... run again to confirm, with a new baseline"
                    take_baseline "$tool" "$setting" "$b" || { fails=$((fails + 1)); break; }
                    continue
                fi
                [ "$verdict" = FAIL ] && fails=$((fails + 1))
                break
            done
        done
    done
done

if [ "$MODE" = full ]; then
    # the table: real median and range over the runs, predicted median,
    # difference of the medians
    say ""
    say "tool setting stall figure (decided by) | real median [min..max] over runs | predicted median [least LOW..most HIGH] | real - predicted"
    awk 'NF == 9 && $5 != "-" {k=$1" "$2" "$3" "$4" ("$7")"; r[k]=r[k]" "$5; p[k]=p[k]" "$6
                               if ($8 != "-" && (!(k in l) || $8 + 0 < l[k] + 0)) l[k] = $8
                               if ($9 != "-" && (!(k in h) || $9 + 0 > h[k] + 0)) h[k] = $9}
         END {for (k in r) print k "|" r[k] "|" p[k] "|" (k in l ? l[k] ".." h[k] : "")}' "$results" | sort |
        while IFS='|' read -r k rs ps range; do
            rm=$(tr ' ' '\n' <<<"$rs" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)], a[1], a[NR]}')
            pm=$(tr ' ' '\n' <<<"$ps" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
            read -r med lo hi <<<"$rm"
            say "$k | $med [$lo..$hi] | $pm${range:+ [$range]} | $((med - pm))"
        done
    say ""
    say "not held (not judged), by tool, setting and stall:"
    awk '$4 == "notheld" {n[$1" "$2" "$3]++} END {for (k in n) print "  " k ": " n[k]}' "$results" | sort
    say "every run's figures (tool setting stall figure real predicted decided-by low high):"
    sed 's/^/  /' "$results"
fi
say "realtools: $judged judged, $fails failed"
[ "$fails" -eq 0 ]
