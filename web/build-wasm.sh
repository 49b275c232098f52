#!/usr/bin/env bash
# Build libcosim for the browser: OUT/cosim-engine.js (the engine, its
# WebAssembly embedded: -sSINGLE_FILE, so a page opened from file:// loads
# it) and OUT/uPlot.iife.min.js, OUT/uPlot.min.css (the charting library
# `cosim lecture` bundles into its page). Meson runs this (web/meson.build);
# nothing here is done by hand.
#
# Usage: build-wasm.sh OUT SOURCE_ROOT CFILE...   (CFILE: libcosim's sources)
#
# What it needs, cached under SOURCE_ROOT/.cache/wasm (ignored by git,
# shared by every build tree, so only the first build pays for it):
#  - GSL and zlib for wasm, from Debian's source packages (apt-get source,
#    with a private deb-src list made from the machine's Debian sources:
#    the system's apt configuration is not touched), only the GSL parts
#    cosim calls (rng, randist, cdf and what they use);
#  - npm's acorn (emcc's optimiser needs it at -O2) and uplot.
# libinih's source package is not reachable from this mirror, so
# web/ini_stream.c stands in for it (see its head comment).
set -eu
out=$1 root=$2
shift 2
cache=$root/.cache/wasm
mkdir -p "$out" "$cache"
out=$(cd "$out" && pwd) cache=$(cd "$cache" && pwd)
jobs=${COSIM_WASM_JOBS:-2}
say() { echo "build-wasm: $*"; }

# --- npm: acorn and uplot (exact versions: the page's bytes depend on them)
npm_dir=$cache/npm
if [ ! -f "$npm_dir/.done-1" ]; then
    say "installing npm packages acorn, uplot into $npm_dir"
    mkdir -p "$npm_dir"
    (cd "$npm_dir" && [ -f package.json ] || echo '{"private": true}' >package.json)
    npm install --prefix "$npm_dir" --no-audit --no-fund --loglevel=error acorn@8.15.0 uplot@1.6.32 >/dev/null
    touch "$npm_dir/.done-1"
fi
export NODE_PATH=$npm_dir/node_modules${NODE_PATH:+:$NODE_PATH}

# --- Debian sources: gsl, zlib
deps=$cache/deps
if [ ! -f "$deps/lib/libgsl.a" ] || [ ! -f "$deps/lib/libz.a" ]; then
    rm -rf "$deps"
    mkdir -p "$deps/apt/lists/partial" "$deps/apt/parts" "$deps/src" "$deps/lib" "$deps/include"
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && grep -q 'debian' "$f" && sed 's/^Types: deb$/Types: deb-src/' "$f" >"$deps/apt/parts/${f##*/}"
    done
    if [ -f /etc/apt/sources.list ]; then
        sed -n 's/^deb \(.*debian.*\)/deb-src \1/p' /etc/apt/sources.list >"$deps/apt/parts/list.list"
    fi
    apt_opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$deps/apt/parts"
              -o "Dir::State::Lists=$deps/apt/lists" -o APT::Sandbox::User=root -q)
    say "fetching Debian's gsl and zlib source packages"
    apt-get "${apt_opts[@]}" update >/dev/null
    # the version the native build links, else the release's own
    for pkg in gsl zlib; do
        (cd "$deps/src" && { apt-get "${apt_opts[@]}" source --download-only "$pkg" >/dev/null 2>&1 ||
            apt-get "${apt_opts[@]}" source --download-only "$pkg/bookworm" >/dev/null; }) ||
            { echo "build-wasm: cannot fetch the $pkg source package" >&2; exit 1; }
    done
    (cd "$deps/src" && for t in *.orig.tar.*; do tar xf "$t"; done)
    gsl=$(echo "$deps"/src/gsl-*/ | cut -d' ' -f1)
    [ -d "$gsl" ] || gsl=$deps/src/gsl
    z=$(echo "$deps"/src/zlib-*/ | cut -d' ' -f1)

    say "configuring GSL for wasm32 (emconfigure)"
    # config.sub of GSL 2.7 knows no emscripten: i686 has wasm32's sizes
    (cd "$gsl" && emconfigure ./configure --host=i686-pc-linux-gnu --disable-shared >configure.out 2>&1) ||
        { tail -20 "$gsl/configure.out" >&2; exit 1; }
    # wasm computes in plain doubles: no x87 registers to coerce out of
    sed -i 's/^#define HAVE_EXTENDED_PRECISION_REGISTERS 1/\/* wasm: no extended precision registers *\//' \
        "$gsl/config.h"
    mkdir -p "$deps/include/gsl"
    for h in "$gsl"/gsl_*.h "$gsl"/*/gsl_*.h; do cp "$h" "$deps/include/gsl/"; done
    say "compiling GSL's rng, randist, cdf, specfunc, err, sys, complex, poly"
    mkdir -p "$deps/obj/gsl"
    for d in rng randist cdf specfunc err sys complex poly; do
        # the library's own file list (Makefile.am), not every .c in the folder
        sed -n '/_la_SOURCES *=/,/^$/p' "$gsl/$d/Makefile.am" | sed 's/.*_la_SOURCES *=//; s/\\//g' |
            tr ' \t' '\n\n' | grep '\.c$' | sed "s|^|$d/|"
    done >"$deps/obj/gsl.list"
    (cd "$gsl" && xargs -P "$jobs" -I{} sh -c 'o="$0/$(echo {} | tr / _).o"; emcc -O2 -DHAVE_CONFIG_H -I. -I"$1" -c {} -o "$o"' \
        "$deps/obj/gsl" "$deps/include" <"$deps/obj/gsl.list")
    emar rcs "$deps/lib/libgsl.a" "$deps"/obj/gsl/*.o
    say "compiling zlib"
    mkdir -p "$deps/obj/z"
    for c in adler32 compress crc32 deflate inffast inflate inftrees trees uncompr zutil; do
        emcc -O2 -c "$z/$c.c" -o "$deps/obj/z/$c.o"
    done
    emar rcs "$deps/lib/libz.a" "$deps"/obj/z/*.o
    cp "$z/zlib.h" "$z/zconf.h" "$deps/include/"
fi

# --- libcosim, the entry point and inih's stand-in
say "compiling libcosim for wasm"
obj=$out/obj
mkdir -p "$obj"
# the native build's cosim_config.h, for a program without an install: the
# engine reads no chart styles nor shipped data (the page gives it its files)
cat >"$obj/cosim_config.h" <<EOF
#define COSIM_VERSION "web"
#define COSIM_SOURCE_PLOTS_DIR "/plots"
#define COSIM_INSTALLED_PLOTS_DIR "/plots"
#define COSIM_BIN_TO_DATA "-"
#define COSIM_SOURCE_ROOT "/"
#define COSIM_BUILD_ROOT "/"
#define COSIM_INSTALLED_DATA_DIR "/share/cosim"
EOF
mkdir -p "$obj/inc"
cp /usr/include/ini.h "$obj/inc/" # libinih-dev's header: the API web/ini_stream.c implements
# every folder of libcosim's sources is on the include path, as meson's
# core_dep gives the native build
incs=()
for d in $(for c in "$@"; do dirname "$c"; done | LC_ALL=C sort -u); do incs+=(-I"$(cd "$d" && pwd)"); done
cflags=(-O3 -std=c11 -D_DEFAULT_SOURCE -Wno-constant-logical-operand -include "$obj/cosim_config.h" "${incs[@]}" -I"$deps/include" -I"$obj/inc")
# The output folder's commit and signal handling (renameat2, getdents64)
# have no wasm counterpart and the engine writes no folder: left out (the
# link below fails if the engine ever reaches them).
lib=()
for c in "$@"; do
    case ${c##*/} in outdir_commit.c | outdir_signal.c) ;; *) lib+=("$c") ;; esac
done
rm -f "$obj"/*.o "$obj/libcosim.a"
printf '%s\n' "${lib[@]}" |
    xargs -P "$jobs" -I{} sh -c 'b=$(basename {} .c); exec "$0" "$@" -c {} -o "'"$obj"'/$b.o"' emcc "${cflags[@]}"
emar rcs "$obj/libcosim.a" "$obj"/*.o
for c in engine ini_stream; do
    emcc "${cflags[@]}" -c "$root/web/$c.c" -o "$obj/web_$c.o"
done
say "linking cosim-engine.js"
emcc -O3 "$obj/web_engine.o" "$obj/web_ini_stream.o" "$obj/libcosim.a" "$deps/lib/libgsl.a" "$deps/lib/libz.a" -o "$out/cosim-engine.js.tmp.js" \
    -sSINGLE_FILE=1 -sMODULARIZE=1 -sEXPORT_NAME=createCosimEngine -sALLOW_MEMORY_GROWTH=1 \
    -sFORCE_FILESYSTEM=1 -sENVIRONMENT=web,worker,node -lnodefs.js \
    -sEXPORTED_FUNCTIONS=_cosim_web_run,_cosim_web_plan,_cosim_web_part,_cosim_web_merge,_malloc,_free \
    -sEXPORTED_RUNTIME_METHODS=ccall,cwrap,FS,UTF8ToString,HEAPU8
mv "$out/cosim-engine.js.tmp.js" "$out/cosim-engine.js"
cp "$npm_dir/node_modules/uplot/dist/uPlot.iife.min.js" "$npm_dir/node_modules/uplot/dist/uPlot.min.css" "$out/"
say "wrote $out/cosim-engine.js ($(wc -c <"$out/cosim-engine.js") bytes)"
