#!/usr/bin/env bash
# One command for the whole test suite: install what is missing, build, run
# every test, then build again with -fsanitize=address,undefined and run
# every test there. .ci/run calls exactly this.
set -u
cd "$(dirname "$0")/.." || exit 1
COSIM_WITH_TESTS=1
. scripts/deps.sh
cosim_install_deps || exit 1

passed=0 failed=0
run_suite() { # DIR
    meson test -C "$1" --print-errorlogs
    local rc=$?
    local log="$1/meson-logs/testlog.txt"
    local ok bad
    ok=$(awk '/^Ok:/ {print $2}' "$log")
    bad=$(awk '/^(Fail|Timeout|Unexpected Pass):/ {n += $NF} END {print n + 0}' "$log")
    passed=$((passed + ${ok:-0}))
    failed=$((failed + bad))
    [ "$rc" -eq 0 ] || [ "$bad" -gt 0 ] || failed=$((failed + 1))
}

# -Dweb=enabled: the browser engine (cosim lecture's explore.html) is built
# and tested here; its default is off (meson_options.txt). -Db_lto=true:
# the suite runs the program as setup.sh builds it (LTO is off in
# meson.build's defaults, docs/decisions.md "LTO on where it is measured").
if cosim_build build -Dweb=enabled -Db_lto=true; then
    run_suite build
else
    echo "cosim: the build failed"
    failed=$((failed + 1))
fi

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# No LTO here: it adds nothing a sanitizer needs and, on a 2-core machine,
# most of this build's time.
# -Dweb=disabled: the browser engine is emcc's WebAssembly, no sanitizer
# reaches it, and build/ already ran its tests (they skip here, saying so).
if cosim_build build-sanitize -Db_sanitize=address,undefined -Db_lundef=false \
        -Db_lto=false -Dc_args=-fno-sanitize-recover=all -Dweb=disabled; then
    run_suite build-sanitize
else
    echo "cosim: the sanitizer build failed"
    failed=$((failed + 1))
fi

# The code must also compile warning-free as users may build it: -O3
# (buildtype=release: gcc's -Wformat-truncation and -Wmaybe-uninitialized
# see more there) and with clang when it is installed. Compile only: the
# suite above already ran the numbers.
for cc in gcc clang; do
    command -v "$cc" >/dev/null 2>&1 || { echo "cosim: $cc not installed: its build is not checked"; continue; }
    # (-Dweb=disabled: the browser engine is emcc's, the same in every tree)
    if CC=$cc cosim_build "build-release-$cc" --buildtype=release -Db_lto=false -Dweb=disabled; then
        passed=$((passed + 1))
    else
        echo "cosim: the release build with $cc failed (warnings are errors)"
        failed=$((failed + 1))
    fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
