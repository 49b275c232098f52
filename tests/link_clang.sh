#!/usr/bin/env bash
# build/libcosim.a links with another C compiler than the one that built it
# (clang): no LTO-only objects (meson.build builds them fat under LTO;
# docs/hacking.md). A small program over the library's API (a histogram:
# 1000 values 1..1000 us, p50 must be 500 us within the bucket's width) is
# compiled and linked by clang and run. Skipped (exit 77, said) without clang.
# Usage: link_clang.sh LIBCOSIM.a SOURCE_ROOT BUILD_ROOT [B_SANITIZE]
set -u
lib=$(realpath "$1") src=$2 build=$3 sanitize=${4:-none}
if [ "$sanitize" != none ]; then
    # instrumented objects call the runtime of the compiler that built them
    echo "SKIP: a -Db_sanitize=$sanitize library needs its own compiler's sanitizer runtime"
    exit 77
fi
if ! command -v clang >/dev/null 2>&1; then
    echo "SKIP: no clang to link libcosim.a with"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# every member with GCC LTO bytecode (.gnu.lto_*) must carry machine code
# too (a .text of non-zero size): fat, not LTO-only
if command -v readelf >/dev/null 2>&1; then
    slim=$(readelf -S -W "$lib" | awk '
        /^File: / { f = $2 }
        /\.gnu\.lto_/ { lto[f] = 1 }
        match($0, /\.text +PROGBITS +[0-9a-f]+ +[0-9a-f]+ +[0-9a-f]+/) {
            split(substr($0, RSTART, RLENGTH), a, / +/)
            if (a[5] !~ /^0+$/) txt[f] = 1
        }
        END { for (k in lto) if (!(k in txt)) print k }')
    [ -z "$slim" ] || { echo "FAIL: LTO-only objects in $lib (build them with -ffat-lto-objects): $slim"; exit 1; }
fi
cat >"$work/p50.c" <<'C'
#include "hist.h"
#include <stdio.h>
int main(void)
{
    hist *h;
    if (hist_new(&h, 8))
        return 2;
    for (int v = 1; v <= 1000; v++)
        hist_record(h, (int64_t)v * 1000);
    /* the 500th of 1000 values under nearest rank: 500 us, read as its
     * bucket's upper edge (sub-buckets of 2^8: within 0.8%) */
    int64_t p50 = hist_value_at_percentile(h, HIST_NEAREST_RANK, 50, 100);
    printf("%lld\n", (long long)p50);
    hist_free(h);
    return p50 >= 500000 && p50 <= 504000 ? 0 : 1;
}
C
# shellcheck disable=SC2046
# the library's headers: sim/ and its layer folders
incs=()
while IFS= read -r d; do incs+=("-I$d"); done < <(find "$src/sim" -type d)
clang -std=c11 -include "$build/cosim_config.h" "${incs[@]}" -I"$build" "$work/p50.c" "$lib" \
    $(pkg-config --libs gsl inih zlib) -lm -o "$work/p50" 2>"$work/err" \
    || { echo "FAIL: clang cannot link $lib: $(cat "$work/err")"; exit 1; }
"$work/p50" || { echo "FAIL: the clang-linked program's p50 is wrong"; exit 1; }
echo "link-clang: clang links $(basename "$lib") and its p50 is right"
