#!/usr/bin/env bash
# Fuzz the scenario reader (and a short run of what it loads) with libFuzzer
# for a bounded time. Usage: tests/fuzz/run.sh [SECONDS]   (default 60)
# New interesting inputs go to tests/fuzz/corpus (commit the useful ones);
# a crash is written as build-fuzz/crash-*: copy it into tests/fuzz/corpus,
# fix the bug, and the test suite replays it from then on.
set -eu
cd "$(dirname "$0")/../.."
seconds=${1:-60}
command -v clang >/dev/null || { echo "fuzz: needs clang (apt-get install clang)" >&2; exit 1; }
out=build-fuzz
mkdir -p "$out"
sources=$(ls sim/*.c | grep -v 'sim/main.c')
clang -g -O1 -std=c11 -D_DEFAULT_SOURCE -DCOSIM_LIBFUZZER -fsanitize=fuzzer,address,undefined \
    -fno-sanitize-recover=undefined -Isim $(pkg-config --cflags gsl inih) \
    tests/fuzz/fuzz_scenario.c $sources -o "$out/fuzz_scenario" $(pkg-config --libs gsl inih) -lm
mkdir -p "$out/new"
"$out/fuzz_scenario" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$out/" -dict=tests/fuzz/scenario.dict "$out/new" tests/fuzz/corpus
echo "fuzz: no crash in $seconds s; new inputs in $out/new"
