#!/usr/bin/env bash
# bench/realtools.sh [REPEATS]: the full campaign of tests/realtools/: each
# tool and setting against cosim target on the article's and the book's
# stalls, 11 s runs, REPEATS times (default 5), then the table of real
# medians and ranges over the runs beside cosim's prediction
# (docs/real-tools.md). Builds build/ first. 127.0.0.1 only; about
# 12 x REPEATS x 15 s.
set -eu
cd "$(dirname "$0")/.."
[ -f build/build.ninja ] || meson setup build -Db_lto=false >/dev/null
ninja -C build cosim >/dev/null
exec bash tests/realtools/realtools.sh build/cosim . full "${1:-5}"
