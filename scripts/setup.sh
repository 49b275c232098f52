#!/usr/bin/env bash
# One command for a new user: install what is missing, build, and run the
# book's Example 5.7 (scenarios/stall_per_second.ini).
set -eu
cd "$(dirname "$0")/.."
. scripts/deps.sh
cosim_install_deps
COSIM_TARGETS=cosim cosim_build build
./build/cosim scenarios/stall_per_second.ini "$@"
