#!/usr/bin/env bash
# The speed-up of cosim sweep with its workers: the same sweep with --jobs 1
# and --jobs 2 (and more, up to the cores), wall-clock, best of 3, and a check
# that the outputs are identical. Usage: bench/sweep.sh [BUILD_DIR]
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=(scenarios/mm1_rho08.ini --vary tester.open.rate=100/s..900/s:8 --set scenario.duration=2000s
      --set truth.interval=1s --replications 2 -q --no-plot)
best() { # JOBS -> seconds
    local b=""
    for _ in 1 2 3; do
        local t0 t1
        t0=$(date +%s.%N)
        "$build/cosim" sweep "${args[@]}" --jobs "$1" -o "$tmp/j$1"
        t1=$(date +%s.%N)
        b=$(echo "$t0 $t1 $b" | awk '{d = $2 - $1; if ($3 == "" || d < $3) print d; else print $3}')
    done
    echo "$b"
}
one=$(best 1)
printf 'jobs  seconds  speed-up\n%4d %8.3f %9.2f\n' 1 "$one" 1
for j in $(seq 2 "$(nproc)"); do
    t=$(best "$j")
    printf '%4d %8.3f %9.2f\n' "$j" "$t" "$(echo "$one $t" | awk '{print $1 / $2}')"
    diff -r "$tmp/j1" "$tmp/j$j" >/dev/null || { echo "outputs differ with --jobs $j"; exit 1; }
done
