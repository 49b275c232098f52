#!/usr/bin/env bash
# What the charts cost end to end: `cosim SCENARIO` (every chart rendered
# by gnuplot) against `cosim SCENARIO --charts none`, in CPU seconds of the
# process and its children (user + sys: gnuplot included) and wall-clock
# seconds, PAIRS pairs of runs, the order flipped every pair; the ratio is
# the median of the pairs' ratios. Not a test: it only reports.
#
# Usage: bench/charts.sh [COSIM] [SCENARIO] [PAIRS]
#   COSIM     the binary (default build/cosim)
#   SCENARIO  default scenarios/stall_per_second.ini
#   PAIRS     default 5
set -eu
cd "$(dirname "$0")/.."
cosim=${1:-build/cosim}
scenario=${2:-scenarios/stall_per_second.ini}
pairs=${3:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TIMEFORMAT='%3R %3U %3S'
run() { # ARGS... -> "wall cpu"
    local t
    t=$( { time "$cosim" -q "$scenario" -o "$tmp/out" --force "$@" >/dev/null; } 2>&1 | tail -1)
    echo "$t" | awk '{print $1, $2 + $3}'
}
median() { sort -g | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
: >"$tmp/r"
for p in $(seq 1 "$pairs"); do
    if [ $((p % 2)) = 1 ]; then
        a=$(run); b=$(run --charts none)
    else
        b=$(run --charts none); a=$(run)
    fi
    echo "$a $b" >>"$tmp/r"
done
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $cosim $scenario, $pairs pairs"
printf '%-12s %10s %10s\n' "" charts none
printf '%-12s %10.3f %10.3f\n' "CPU s" "$(awk '{print $2}' "$tmp/r" | median)" "$(awk '{print $4}' "$tmp/r" | median)"
printf '%-12s %10.3f %10.3f\n' "wall s" "$(awk '{print $1}' "$tmp/r" | median)" "$(awk '{print $3}' "$tmp/r" | median)"
printf 'CPU ratio (median of pairs) %.2f; wall ratio %.2f\n' "$(awk '{print $2 / $4}' "$tmp/r" | median)" \
    "$(awk '{print $1 / $3}' "$tmp/r" | median)"
