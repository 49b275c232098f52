#!/usr/bin/env bash
# Fuzz everything cosim reads (command line, --set values, scenario file,
# data files: see fuzz_scenario.c for the input's parts) with libFuzzer for
# a bounded time, on one job, then minimise the corpus.
# Usage: tests/fuzz/run.sh [SECONDS]   (default 60)
# New interesting inputs are merged into tests/fuzz/corpus (the smallest set
# with the same coverage: commit it); a crash is written as
# build-fuzz/crash-*: copy it into tests/fuzz/regressions, fix the bug, and
# the test suite replays it from then on.
set -eu
cd "$(dirname "$0")/../.."
seconds=${1:-60}
command -v clang >/dev/null || { echo "fuzz: needs clang (apt-get install clang)" >&2; exit 1; }
out=build-fuzz
mkdir -p "$out"
# the same CLI files as the meson target fuzz_scenario (tests/meson.build)
sources="$(ls sim/*/*.c) cli/options.c cli/outputs.c cli/charts.c cli/sweep_cli.c cli/sweep_merge.c"
includes=$(for d in sim/*/; do printf -- '-I%s ' "${d%/}"; done)
# the meson build passes -include cosim_config.h; here its one value needed
version=$(sed -n "s/^ *version : '\\(.*\\)',/\\1/p" meson.build | head -n 1)
clang -g -O1 -std=c11 -D_DEFAULT_SOURCE -DCOSIM_LIBFUZZER -DCOSIM_VERSION="\"$version\"" \
    -fsanitize=fuzzer,address,undefined \
    -fno-sanitize-recover=undefined $includes -Icli $(pkg-config --cflags gsl inih zlib) \
    tests/fuzz/fuzz_scenario.c $sources -o "$out/fuzz_scenario" $(pkg-config --libs gsl inih zlib) -lm
rm -rf "$out/new" "$out/min"
mkdir -p "$out/new" "$out/min"
# -close_fd_mask=3: cosim's own messages silenced (libFuzzer and the
# sanitizers keep their output)
"$out/fuzz_scenario" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$out/" -dict=tests/fuzz/scenario.dict \
    "$out/new" tests/fuzz/corpus tests/fuzz/regressions
# the kept corpus: the smallest set of inputs with all the coverage found
"$out/fuzz_scenario" -merge=1 -close_fd_mask=3 -max_len=4096 -timeout=10 "$out/min" \
    tests/fuzz/corpus "$out/new"
rm -f tests/fuzz/corpus/*
cp "$out/min"/* tests/fuzz/corpus/
echo "fuzz: no crash in $seconds s; corpus: $(ls tests/fuzz/corpus | wc -l) inputs"
