#!/usr/bin/env bash
# One command for a new user: install what is missing, build, and run the
# book's Example 5.7 (scenarios/stall_per_second.ini).
set -eu
cd "$(dirname "$0")/.."
. scripts/deps.sh
cosim_install_deps
# -Db_lto=true: the engine's speed as benchmarked (docs/performance.md);
# meson.build leaves LTO off so a plain `meson setup && ninja` stays quick.
COSIM_TARGETS=cosim cosim_build build -Db_lto=true
./build/cosim scenarios/stall_per_second.ini "$@"
