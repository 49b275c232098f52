# shellcheck shell=bash
# Sourced by setup.sh and test.sh: install the Debian packages cosim needs,
# only those missing (apt-get as root, or through sudo).
COSIM_PACKAGES="gcc libc6-dev pkg-config meson ninja-build libgsl-dev libinih-dev zlib1g-dev check gnuplot-nox procps"
# Only for the test suite (scripts/test.sh sets COSIM_WITH_TESTS=1): Java and
# HdrHistogram's own implementation, for the .hlog/.hgrm interop test; Chromium,
# headless, for the lecture page's test (tests/lecture_browser.sh).
# The real load tools, for tests/realtools/ (cosim's predictions held against
# them, against cosim target on 127.0.0.1).
# emscripten and node (npm: acorn, uplot, puppeteer-core, installed by the
# build into .cache/) for the lecture page's engine built for the browser
# (web/build-wasm.sh) and its tests; dpkg-dev for apt-get source.
COSIM_TEST_PACKAGES="default-jre-headless libhdrhistogram-java chromium parallel clang wrk hey apache2-utils httperf siege emscripten dpkg-dev"
# Commands whose Debian package is installed only when the command is
# missing (a machine with nodesource's nodejs has npm without the npm
# package, which would conflict with it).
COSIM_TEST_COMMANDS="node:nodejs npm:npm"

cosim_install_deps() {
    local missing="" p wanted="$COSIM_PACKAGES"
    [ "${COSIM_WITH_TESTS:-0}" = 1 ] && wanted="$wanted $COSIM_TEST_PACKAGES"
    for p in $wanted; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
    done
    if [ "${COSIM_WITH_TESTS:-0}" = 1 ]; then
        for p in $COSIM_TEST_COMMANDS; do
            command -v "${p%%:*}" >/dev/null 2>&1 || missing="$missing ${p#*:}"
        done
    fi
    [ -z "$missing" ] && return 0
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "cosim: installing the missing Debian packages:$missing"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null &&
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >/dev/null ||
        { echo "cosim: could not install:$missing" >&2; return 1; }
}

# cosim_build DIR [MESON OPTIONS...]: configure DIR once, then build it
# with warnings as errors (-Dwerror=true; the build uses warning_level=3),
# the compiler's output shown: a warning fails the build where it is seen.
# COSIM_TARGETS, when set, names the ninja targets to build (setup.sh builds
# only the cosim program; the tests are built by test.sh).
cosim_build() {
    local dir=$1
    shift
    if [ ! -f "$dir/build.ninja" ]; then
        meson setup "$dir" -Dwerror=true "$@" || return 1
    else
        meson configure "$dir" -Dwerror=true || return 1
    fi
    # shellcheck disable=SC2086 # a list of target names
    ninja -C "$dir" ${COSIM_TARGETS:-}
}
