#!/usr/bin/env bash
# cosim against HdrHistogram's own implementation (Debian's
# libhdrhistogram-java): cosim -> .hlog -> HistogramLogReader gives the same
# count, max and percentiles; HistogramLogWriter and
# outputPercentileDistribution -> .hlog / .hgrm -> cosim gives the same.
# 3. cosim's run outputs (scenarios/gc_log.ini, hlog_interval = 1s): the sum of
# each TESTER.hlog's intervals, read by HistogramLogReader, has the count and
# p50, p90, p99, p99.9 of the tester's summary.json.
# 4. the run's TESTER.hgrm against HistogramLogProcessor's .hgrm of its
# TESTER.hlog: the same unit (milliseconds) and values.
# Usage: interop.sh HLOG_TOOL SOURCE_ROOT COSIM. Exit 77 (a skip, said aloud) when
# Java or the library is missing.
set -u
tool=$(realpath "$1") root=$2 cosim=$(realpath "$3")
jar=
for j in /usr/share/java/hdrhistogram.jar /usr/share/java/HdrHistogram.jar; do
    [ -r "$j" ] && jar=$j && break
done
if ! command -v java >/dev/null 2>&1 || [ -z "$jar" ]; then
    echo "SKIP: the HdrHistogram interop test needs java and libhdrhistogram-java" \
         "(apt-get install default-jdk-headless libhdrhistogram-java)"
    exit 77
fi
java_src="$root/tests/interop/HlogInterop.java"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
run_java() { java -Xshare:auto -cp "$jar" "$java_src" "$@"; }

# 1. cosim writes, HdrHistogram reads: the same figures, interval by interval
"$tool" write "$work/cosim.hlog" >"$work/cosim.txt" || fail "hlog_tool write exited $?"
run_java read "$work/cosim.hlog" >"$work/java.txt" 2>"$work/java.err" || fail "Java could not read cosim.hlog: $(cat "$work/java.err")"
diff -u "$work/cosim.txt" "$work/java.txt" || fail "HistogramLogReader's figures differ from cosim's"
[ "$(wc -l <"$work/java.txt")" -eq 6 ] || fail "Java read $(wc -l <"$work/java.txt") intervals, want 6"
# HdrHistogram's own log processor accepts the whole log
( cd "$work" && java -cp "$jar" org.HdrHistogram.HistogramLogProcessor -i cosim.hlog -o processed >/dev/null 2>"$work/proc.err" ) \
    || fail "HistogramLogProcessor failed: $(cat "$work/proc.err")"
grep -q "Total count" "$work/processed.hgrm" 2>/dev/null || fail "HistogramLogProcessor wrote no processed.hgrm"

# 2. HdrHistogram writes, cosim reads
mkdir -p "$work/j"
run_java write "$work/j" >"$work/expect.txt" 2>"$work/java.err" || fail "Java could not write: $(cat "$work/java.err")"
grep '^tag=' "$work/expect.txt" >"$work/expect_hlog.txt"
"$tool" read "$work/j/java.hlog" >"$work/got_hlog.txt" || fail "cosim could not read java.hlog"
diff -u "$work/expect_hlog.txt" "$work/got_hlog.txt" || fail "cosim's figures of java.hlog differ from HdrHistogram's"
echo "hgrm $("$tool" hgrm "$work/j/java.hgrm" 1)" >"$work/got_hgrm.txt"
echo "hgrm_ms $("$tool" hgrm "$work/j/java_ms.hgrm" 1000000)" >>"$work/got_hgrm.txt"
grep '^hgrm' "$work/expect.txt" | diff -u - "$work/got_hgrm.txt" || fail "cosim's figures of java.hgrm differ"

# 2b. hdr-histogram-js (npm) writes normalizing index offset 1 in every
# histogram header (tests/inputs/make_js_hlog.js made the fixture): Java
# ignores it, and cosim reads the same figures
"$tool" read "$root/tests/inputs/hlog/js_offset.hlog" >"$work/js_cosim.txt" || fail "cosim could not read js_offset.hlog"
run_java read "$root/tests/inputs/hlog/js_offset.hlog" >"$work/js_java.txt" 2>"$work/java.err" \
    || fail "Java could not read js_offset.hlog: $(cat "$work/java.err")"
diff -u "$work/js_java.txt" "$work/js_cosim.txt" || fail "cosim's figures of hdr-histogram-js's log differ from HdrHistogram Java's"
[ "$(wc -l <"$work/js_java.txt")" -eq 2 ] || fail "Java read $(wc -l <"$work/js_java.txt") intervals of js_offset.hlog, want 2"

# 3. a whole cosim run: TESTER.hlog against summary.json
"$cosim" "$root/scenarios/gc_log.ini" -o "$work/run" --no-plot --quiet || fail "cosim gc_log.ini exited $?"
for t in open:10 closed:11; do
    name=${t%%:*} want_iv=${t#*:}
    got=$(run_java total "$work/run/$name.hlog" 2>"$work/java.err") || fail "Java could not read $name.hlog: $(cat "$work/java.err")"
    # summary.json: the tester's recorded count and percentiles_ns 50, 90, 99, 99.9
    want=$(awk -v n="\"$name\"" '
        $0 ~ "\"name\": " n { on = 1 }
        on && /"recorded":/ { gsub(/[^0-9]/, "", $2); rec = $2 }
        on && /"percentiles_ns":/ {
            match($0, /\{.*\}/); s = substr($0, RSTART + 1, RLENGTH - 2); split(s, kv, ", ")
            for (i in kv) { split(kv[i], p, ": "); gsub(/"/, "", p[1]); v[p[1]] = p[2] }
            print "intervals=" iv " count=" rec " " v["50"] " " v["90"] " " v["99"] " " v["99.9"]; exit }
    ' iv="$want_iv" "$work/run/summary.json")
    [ "$got" = "$want" ] || fail "$name.hlog: HdrHistogram reads '$got', cosim's summary.json says '$want'"
done

# 4. the .hgrm's unit is HdrHistogram's tools' (milliseconds, as wrk2 and
# HistogramLogProcessor write them): the processor's spectrum of the run's
# own TESTER.hlog (its default -outputValueUnitRatio 10^6 over ns) and
# cosim's TESTER.hgrm agree on the mean, the max and the value of every
# percentile row, within HdrHistogram's bucket width (1%); a unit off by
# 1000 fails by a factor of 1000.
for name in open closed; do
    ( cd "$work/run" && java -cp "$jar" org.HdrHistogram.HistogramLogProcessor -i "$name.hlog" -o "proc_$name" \
        >/dev/null 2>"$work/proc.err" ) || fail "HistogramLogProcessor on $name.hlog: $(cat "$work/proc.err")"
    verdict=$(awk '
        FNR == 1 { file++ }
        /^#\[Mean/ { gsub(/,/, ""); mean[file] = $3 }
        /^#\[Max/ { gsub(/,/, ""); max[file] = $3 }
        /^ *[0-9.]+ +[01]\.[0-9]+ +[0-9]+/ { v[file, $2 + 0] = $1; key[$2 + 0] = 1 }
        function off(a, b) { return a > b ? a / b - 1 : b / a - 1 }
        END {
            if (!(mean[1] > 0 && max[1] > 0 && mean[2] > 0 && max[2] > 0)) { print "no Mean or Max line"; exit }
            if (off(mean[1], mean[2]) > 0.01) { print "mean " mean[1] " vs " mean[2]; exit }
            if (off(max[1], max[2]) > 0.01) { print "max " max[1] " vs " max[2]; exit }
            n = 0
            for (p in key) if ((1, p) in v && (2, p) in v) {
                n++
                if (off(v[1, p], v[2, p]) > 0.01) { print "percentile " p ": " v[1, p] " vs " v[2, p]; exit }
            }
            print (n >= 10 ? "ok " n : "only " n " common percentile rows")
        }' "$work/run/proc_$name.hgrm" "$work/run/$name.hgrm")
    case $verdict in
    ok*) ;;
    *) fail "$name.hgrm and HistogramLogProcessor's spectrum of $name.hlog differ (cosim's second): $verdict" ;;
    esac
done

[ "$fails" -eq 0 ] && echo "interop: cosim and HdrHistogram $(basename "$jar" .jar) agree" || exit 1
