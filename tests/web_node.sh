#!/usr/bin/env bash
# The browser's engine (cosim-engine.js, libcosim built for WebAssembly)
# run under node gives the native cosim's numbers byte for byte:
#  - every shipped scenario (scenarios/*.ini): summary.json and the printed
#    summary identical to `cosim SCENARIO`'s;
#  - the same with --set overrides (a longer freeze, another rate, the
#    nearest_rank rule, another seed): what the page sends;
#  - the page's way, the run cut into parts (each tester, the truth) run in
#    two engine instances and merged (cosim_web_plan, _part, _merge): the
#    whole answer (summary.json, the text, the table, the chart data)
#    byte for byte the one-piece run's, for every shipped scenario and the
#    --set cases above; and the testers' parts merged without the truth's
#    (what the page draws while the truth runs): "truth_pending", every
#    tester's figures as in the whole answer, no truth figure;
#  - every tests/bad/*.ini: the same message and exit code as the CLI
#    (the scenario reader's errors, the work budget's refusal), which holds
#    web/ini_stream.c to Debian's libinih line for line.
# Skipped (exit 77), saying so, only when emcc or node is missing (the
# engine is then not built).
# Usage: web_node.sh COSIM ENGINE.js SOURCE_ROOT
set -u
cosim=$(realpath "$1") root=$3
engine=$2
command -v node >/dev/null || { echo "node not installed: skipped"; exit 77; }
[ -s "$engine" ] || { echo "no $engine (the browser engine is not built: -Dweb=enabled needs emcc): skipped"; exit 77; }
engine=$(realpath "$engine")
runner=$root/web/run-node.js
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root" || exit 1
fails=0 checked=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# same_run NAME SCENARIO [--set K=V]...: summary.json and the text alike
same_run() {
    local name=$1 scn=$2
    shift 2
    rm -rf "$work/n"
    "$cosim" "$scn" "$@" --charts none -o "$work/n" >"$work/native.txt" 2>"$work/native.err"
    local rc=$?
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
        fail "$name: native cosim exited $rc: $(cat "$work/native.err")"
        return
    fi
    node "$runner" "$engine" summary "$scn" "$@" >"$work/web.json" 2>"$work/web.err" ||
        { fail "$name: the wasm engine failed: $(cat "$work/web.err")"; return; }
    node "$runner" "$engine" text "$scn" "$@" >"$work/web.txt" 2>/dev/null
    # the CLI's stdout: the summary, then a blank line and "wrote DIR/..."
    sed '/^$/{N;/\nwrote /d}' "$work/native.txt" | sed '/^wrote /d' >"$work/native.sum"
    cmp -s "$work/n/summary.json" "$work/web.json" ||
        { fail "$name: summary.json differs:"; diff "$work/n/summary.json" "$work/web.json" | head -10; }
    cmp -s "$work/native.sum" "$work/web.txt" ||
        { fail "$name: the printed summary differs:"; diff "$work/native.sum" "$work/web.txt" | head -10; }
    checked=$((checked + 1))
}

for scn in scenarios/*.ini; do
    same_run "$scn" "$scn"
done
# GSL's other generators: seeded with 32 bits (GSL's unsigned long is 32
# bits in WebAssembly, 64 natively: wider seeds once crashed ran1 natively,
# zeroed minstd's draws and parted 17 generators' figures between the
# builds; rng.c), the same figures in both builds; the four that compute in
# C long (ran3, ranlux, ranlux389, zuf) are refused
for gen in ran0 ran1 ran2 minstd fishman18 knuthran2 random-glibc2 uni32 taus113 ranlxs0; do
    same_run "generator $gen" scenarios/stall_per_second.ini --set scenario.generator=$gen \
        --set scenario.duration=3s --set service.sigma=0.6
done
same_run "stall_per_second with a 50 ms freeze" scenarios/stall_per_second.ini --set stall.freeze.length=50ms \
    --set tester.open.rate=500/s
same_run "one_stall, nearest_rank, seed 7" scenarios/one_stall.ini --set scenario.rank_rule=nearest_rank \
    --set scenario.seed=7
# a --set value's backslashes reach the engine as written (the page escapes
# them and its line breaks: web/engine.c's unescape_set), and a line break
# is refused in the CLI's words, not split into two --set lines
same_run "a label with backslashes" scenarios/one_stall.ini --set 'tester.open.label=a\b\nc\\'
for v in $'a\nb' $'a\rb' $'a\\n\nb'; do
    "$cosim" scenarios/one_stall.ini --set "tester.open.label=$v" --charts none -q -o "$work/lb" >/dev/null 2>"$work/native.err"
    nrc=$?
    node "$runner" "$engine" summary scenarios/one_stall.ini --set "tester.open.label=$v" >/dev/null 2>"$work/web.err"
    wrc=$?
    [ "$nrc" = 2 ] && [ "$wrc" = 2 ] && cmp -s "$work/native.err" "$work/web.err" ||
        fail "--set tester.open.label=$(printf %q "$v"): native exit $nrc, wasm exit $wrc: $(cat "$work/native.err" "$work/web.err")"
done
echo "$checked runs: summary.json and the printed summary identical"

# the pool's parts merged: the one-piece answer, byte for byte. The two
# engines keep their service tapes (server.h) from one run to the next, as
# the page's workers do: the scenarios in turn restart them; the last three
# runs reuse stall_per_second's, restart it for another sigma, and come back
part_args=()
for scn in scenarios/*.ini; do
    part_args+=("$scn" --)
done
part_args+=(scenarios/stall_per_second.ini --set stall.freeze.length=50ms --set tester.open.rate=500/s --
            scenarios/one_stall.ini --set scenario.rank_rule=nearest_rank --set scenario.seed=7 --
            scenarios/stall_per_second.ini --set tester.closed.users=3 --set tester.paced.chart=no --
            scenarios/stall_per_second.ini --set service.sigma=0.3 --set stall.freeze.length=20ms --
            scenarios/stall_per_second.ini --set stall.freeze.length=20ms)
node "$runner" "$engine" --same-parts "${part_args[@]}" >"$work/parts.txt" 2>&1 ||
    fail "the parts merged differ from the one-piece run: $(grep -v '^same' "$work/parts.txt")"
nparts=$(grep -c '^same: .*(ran)$' "$work/parts.txt")
[ "$nparts" -ge 16 ] || fail "only $nparts runs merged from parts: $(cat "$work/parts.txt")"
echo "$nparts runs merged from parts in two engines: the one-piece answer byte for byte"
# the testers' parts merged without the truth's (the page draws them while
# the truth runs): every scenario with a [truth] among the runs above, and
# the two stall_per_second cases with --set
nfirst=$(grep -c '^testers first: ' "$work/parts.txt")
ntruth=$(grep -l '^\[truth\]' scenarios/*.ini | wc -l)
[ "$ntruth" -ge 1 ] && [ "$nfirst" -ge $((ntruth + 2)) ] ||
    fail "only $nfirst testers-first merges for $ntruth scenarios with a [truth]: $(cat "$work/parts.txt")"
echo "$nfirst runs merged from the testers' parts alone: their figures as in the whole answer, no truth's"

# the refusals: the CLI's message and exit code, word for word (the engine
# runs them one after another in one instance, as the page runs its changes)
nbad=0
mkdir -p "$work/web-bad"
bads=()
for ini in tests/bad/*.ini; do
    [ -f "${ini%.ini}.expected" ] && bads+=("$ini")
done
node "$runner" "$engine" --errors "$work/web-bad" "${bads[@]}" || fail "the wasm engine stopped on the bad scenarios"
for ini in "${bads[@]}"; do
    "$cosim" "$ini" --charts none -q -o "$work/b" >/dev/null 2>"$work/native.err"
    nrc=$?
    rm -rf "$work/b"
    [ "$nrc" -eq 0 ] && continue # refused only by a later step (a chart, a folder)
    b=$work/web-bad/${ini##*/}
    wrc=$(cat "$b.rc" 2>/dev/null)
    if [ "$nrc" != "$wrc" ] || ! cmp -s "$work/native.err" "$b.err"; then
        fail "$ini: native exit $nrc, wasm exit $wrc:"
        diff "$work/native.err" "$b.err" | head -6
    fi
    nbad=$((nbad + 1))
done
echo "$nbad bad scenarios: the same message and exit code"
[ "$nbad" -gt 100 ] || fail "only $nbad bad scenarios compared"
[ "$fails" -eq 0 ] && exit 0
echo "$fails failures"
exit 1
