#!/usr/bin/env bash
# cosim's benchmark: ns per simulated request and requests per second for
# each tester kind, lognormal and constant service, 1e6 to 1e8 requests,
# with peak memory, against a minimal reference loop (one GSL draw, one FIFO
# step, one histogram record per request). Not a test: it only reports.
# Each figure is the best of 3 runs (wall-clock time is noisy on a shared
# machine). Usage: bench/run.sh [BUILD_DIR] [MAX_REQUESTS]  (default build, 1e8)
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
max=${2:-100000000}
ninja -C "$build" bench_engine >/dev/null
exe=$build/bench_engine
best() { # best of 3 by ns/req (column 5)
    for _ in 1 2 3; do "$exe" "$@"; done | sort -g -k5 | head -n 1
}
printf '%-9s %-9s %11s %8s %8s %12s %8s %7s\n' kind service requests seconds ns/req req/s rss_KiB vs_ref
for service in lognormal constant; do
    for n in 1000000 10000000 100000000; do
        [ "$n" -le "$max" ] || continue
        ref=$(best reference "$service" "$n")
        ref_ns=$(echo "$ref" | awk '{print $5}')
        echo "$ref 1.00"
        for kind in open paced corrected closed; do
            line=$(best "$kind" "$service" "$n")
            echo "$line $(echo "$line" | awk -v r="$ref_ns" '{printf "%.2f", $5 / r}')"
        done
    done
done
