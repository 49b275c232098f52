#!/usr/bin/env bash
# Instructions per simulated request, counted by valgrind's callgrind (the
# same count on every run, whatever else the machine is doing), for the
# reference loop and each tester kind; the ratio to the reference is the
# figure the performance target is stated in (docs/performance.md).
# Usage: bench/instructions.sh [BUILD_DIR] [REQUESTS]  (default build, 300000)
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
n=${2:-300000}
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
ninja -C "$build" bench_engine >/dev/null
count() { # KIND SERVICE N -> instructions per request (startup subtracted)
    local total base
    total=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$build/bench_engine" "$1" "$2" "$3" 2>&1 \
        | awk '/Collected :/ {print $NF}')
    base=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$build/bench_engine" "$1" "$2" 1 2>&1 \
        | awk '/Collected :/ {print $NF}')
    echo "$total $base $3" | awk '{printf "%.1f", ($1 - $2) / ($3 - 1)}'
}
printf '%-9s %-9s %12s %7s\n' kind service instr/req vs_ref
for service in lognormal constant; do
    ref=$(count reference "$service" "$n")
    printf '%-9s %-9s %12s %7s\n' reference "$service" "$ref" 1.00
    for kind in open paced corrected closed; do
        v=$(count "$kind" "$service" "$n")
        printf '%-9s %-9s %12s %7s\n' "$kind" "$service" "$v" "$(echo "$v $ref" | awk '{printf "%.2f", $1 / $2}')"
    done
done
