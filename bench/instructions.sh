#!/usr/bin/env bash
# Instructions per simulated request, counted by valgrind's callgrind (the
# same count on every run, whatever else the machine is doing), for the
# yardstick ../shared/bench/limit.c (as built by bench/run.sh into
# BUILD/bench-limit) and each tester kind run as `cosim` runs by default
# (bench_engine: chart data on); the ratio is cosim's over the yardstick's.
# Usage: bench/instructions.sh [BUILD_DIR] [REQUESTS] [bench_engine OPTION...]
#   (default build, 300000; e.g. `nocharts` for the engine alone)
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
n=${2:-300000}
shift $(($# < 2 ? $# : 2))
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
ninja -C "$build" bench_engine >/dev/null
limit=$build/bench-limit
if [ ! -x "$limit" ]; then
    for c in ${LIMIT_C:-} ../shared/bench/limit.c ../../shared/bench/limit.c /work/shared/bench/limit.c; do
        [ -f "$c" ] && { gcc -O2 -march=native "$c" -o "$limit" -lgsl -lgslcblas -lm; break; }
    done
fi
collected() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | awk '/Collected :/ {print $NF}'; }
per_request() { # N COMMAND_FOR_N COMMAND_FOR_1 -> instructions per request (start-up subtracted)
    local total base
    total=$(collected "${@:2:$(($# / 2))}")
    base=$(collected "${@:$(($# / 2 + 2))}")
    echo "$total $base $1" | awk '{printf "%.1f", ($1 - $2) / ($3 - 1)}'
}
printf '%-9s %-9s %12s %7s\n' kind service instr/req vs_limit
for service in lognormal constant; do
    mode=$([ "$service" = lognormal ] && echo 2 || echo 1)
    ref=-
    if [ -x "$limit" ]; then
        ref=$(per_request "$n" "$limit" "$n" "$mode" "$limit" 1 "$mode")
        printf '%-9s %-9s %12s %7s\n' limit "$service" "$ref" 1.00
    fi
    for kind in open paced corrected closed; do
        v=$(per_request "$n" "$build/bench_engine" "$kind" "$service" "$n" "$@" \
            "$build/bench_engine" "$kind" "$service" 1 "$@")
        printf '%-9s %-9s %12s %7s\n' "$kind" "$service" "$v" \
            "$(echo "$v $ref" | awk '$2 == "-" {print "-"; next} {printf "%.2f", $1 / $2}')"
    done
done
