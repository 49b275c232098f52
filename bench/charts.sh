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
#
# Then the floor the charts cannot go under: the same PNG canvases (the
# sizes read from the charts just drawn) with nothing on them but an empty
# frame, in as many gnuplot processes as cosim starts (one per core, each
# taking a contiguous share, as plot_render_batch does): gnuplot's start-up,
# cairo's surface and the PNG encoding (libpng's filters and zlib), which
# gnuplot's pngcairo terminal gives no setting for.
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

# the blank canvases: a PNG's width and height are bytes 16..23 (IHDR)
"$cosim" -q "$scenario" -o "$tmp/out" --force >/dev/null
pngs=$(grep -o '^file [a-z_]*\.png' "$tmp/out/.cosim-manifest" | cut -d' ' -f2 | sort -u)
order=""
for c in spectrum timeline requests summary; do # plot_render_batch's order (chart_kinds)
    echo "$pngs" | grep -qx "$c.png" && order="$order $c"
done
set -- $order
n=$#
procs=$(nproc)
[ "$procs" -gt "$n" ] && procs=$n
mpx=0
for g in $(seq 0 $((procs - 1))); do
    : >"$tmp/blank$g.gp"
    i=0
    for c in $order; do
        if [ $i -ge $((g * n / procs)) ] && [ $i -lt $(((g + 1) * n / procs)) ]; then
            read -r w h < <(od -An -tu1 -j16 -N8 "$tmp/out/$c.png" |
                awk '{print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8}')
            mpx=$(awk -v m="$mpx" -v w="$w" -v h="$h" 'BEGIN {print m + w * h / 1e6}')
            printf 'reset session\nset terminal pngcairo size %d,%d font "Sans,18"\nset output "%s"\n' \
                "$w" "$h" "$tmp/blank_$c.png" >>"$tmp/blank$g.gp"
            printf 'set xrange [0:1]\nset yrange [0:1]\nplot 2 notitle\nunset output\n' >>"$tmp/blank$g.gp"
        fi
        i=$((i + 1))
    done
done
: >"$tmp/b"
for p in $(seq 1 "$pairs"); do
    t=$( { time (for g in $(seq 0 $((procs - 1))); do gnuplot "$tmp/blank$g.gp" & done; wait); } 2>&1 | tail -1)
    echo "$t" | awk '{print $1, $2 + $3}' >>"$tmp/b"
done
printf 'blank canvases (%s, %.2f Mpx, %d gnuplots): CPU %.3f s, wall %.3f s (median of %d)\nfloor of the CPU ratio (the run without charts plus the blank canvases, over the run without charts): %.2f\n' \
    "$(echo $order | tr ' ' ',')" "$mpx" "$procs" "$(awk '{print $2}' "$tmp/b" | median)" \
    "$(awk '{print $1}' "$tmp/b" | median)" "$pairs" \
    "$(awk -v none="$(awk '{print $4}' "$tmp/r" | median)" '{print ($2 + none) / none}' "$tmp/b" | median)"
