#!/usr/bin/env bash
# cosim's engine against the yardstick, ../shared/bench/limit.c (built here
# from there, never copied into the project): per simulated request, for
# each tester kind, lognormal service (limit.c mode 2, the same ziggurat
# sampler) and constant service (mode 1), cosim run as by default (chart
# data on, bench_engine).
#
# Each figure is paired: PAIRS pairs of runs, cosim and limit.c one after
# the other (the order flipped every pair), each timed in CPU seconds of the
# whole process (user + sys, bash's `time`); the ratio is the median of the
# pairs' ratios, the ns per request the medians of each side. Beside them,
# callgrind's instructions per request (bench/instructions.sh: exact, the
# same on every run), and cosim's peak memory. Not a test: it only reports.
#
# Usage: bench/run.sh [BUILD_DIR] [SIZES] [PAIRS] [CALLGRIND_N]
#   SIZES        comma-separated request counts (default 10000000,100000000)
#   PAIRS        pairs per figure (default 5)
#   CALLGRIND_N  requests for the instruction counts (default 300000; 0: skip)
# LIMIT_C=path overrides where limit.c is looked for; SERVICES="lognormal"
# limits the services (default "lognormal constant").
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
sizes=${2:-10000000,100000000}
pairs=${3:-5}
cg_n=${4:-300000}
limit_c=${LIMIT_C:-}
if [ -z "$limit_c" ]; then
    for c in ../shared/bench/limit.c ../../shared/bench/limit.c /work/shared/bench/limit.c; do
        [ -f "$c" ] && { limit_c=$c; break; }
    done
fi
[ -n "$limit_c" ] && [ -f "$limit_c" ] || { echo "limit.c not found: set LIMIT_C" >&2; exit 1; }
ninja -C "$build" bench_engine >/dev/null
limit=$build/bench-limit
gcc -O2 -march=native "$limit_c" -o "$limit" -lgsl -lgslcblas -lm
engine=$build/bench_engine

TIMEFORMAT='%3U %3S'
cpu() { # COMMAND... -> "cpu_seconds" on stdout; the command's own line on fd 3
    local t
    { t=$( { time "$@" >&3; } 2>&1 ); } 3>"$tmp/out"
    echo "$t" | awk '{print $1 + $2}'
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -g | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "# pairs of runs: $pairs; CPU ns per simulated request (median); ratio = median of the pairs' ratios"
instr() { :; }
if [ "$cg_n" != 0 ]; then
    bench/instructions.sh "$build" "$cg_n" >"$tmp/instr"
fi
printf '%-9s %-9s %10s %9s %9s %7s %10s %10s %7s %8s\n' kind service requests limit_ns cosim_ns ratio \
    limit_ins cosim_ins ins_rat rss_KiB
for service in ${SERVICES:-lognormal constant}; do
    mode=$([ "$service" = lognormal ] && echo 2 || echo 1)
    for n in ${sizes//,/ }; do
        for kind in open paced corrected closed; do
            : >"$tmp/l"; : >"$tmp/c"; : >"$tmp/r"
            for p in $(seq 1 "$pairs"); do
                if [ $((p % 2)) = 1 ]; then
                    lc=$(cpu "$limit" "$n" "$mode")
                    cc=$(cpu "$engine" "$kind" "$service" "$n"); line=$(cat "$tmp/out")
                else
                    cc=$(cpu "$engine" "$kind" "$service" "$n"); line=$(cat "$tmp/out")
                    lc=$(cpu "$limit" "$n" "$mode")
                fi
                sent=$(echo "$line" | awk '{print $3}')
                rss=$(echo "$line" | awk '{print $7}')
                echo "$lc $n" | awk '{print $1 * 1e9 / $2}' >>"$tmp/l"
                echo "$cc $sent" | awk '{print $1 * 1e9 / $2}' >>"$tmp/c"
                echo "$cc $sent $lc $n" | awk '{print ($1 / $2) / ($3 / $4)}' >>"$tmp/r"
            done
            li=$(awk -v s="$service" '$1 == "limit" && $2 == s {print $3}' "$tmp/instr" 2>/dev/null || true)
            ci=$(awk -v k="$kind" -v s="$service" '$1 == k && $2 == s {print $3}' "$tmp/instr" 2>/dev/null || true)
            ir=$(echo "${ci:-0} ${li:-0}" | awk '{print ($2 > 0 ? sprintf("%.2f", $1 / $2) : "-")}')
            printf '%-9s %-9s %10s %9.1f %9.1f %7.2f %10s %10s %7s %8s\n' "$kind" "$service" "$n" \
                "$(median <"$tmp/l")" "$(median <"$tmp/c")" "$(median <"$tmp/r")" "${li:--}" "${ci:--}" "$ir" "$rss"
        done
    done
done
