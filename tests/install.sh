#!/usr/bin/env bash
# An installed cosim stands alone (docs/install.md). meson install puts the
# build into a temporary DESTDIR; the installed tree is then moved to
# another folder, so neither the configured prefix nor the source tree
# leads to it, and the program is run from a third folder:
# - the chart styles come from the installed share/cosim/plots: a marker
#   appended to the installed spectrum.gp shows up in the run's spectrum.gp
#   (the clone's plots/ came first before, so junk there broke an installed
#   cosim);
# - a shipped scenario is found by NAME (with a data file: gc_log), and the
#   man page's EXAMPLE runs;
# - a sweep and the lecture run and draw their charts; when the build made
#   the browser engine (-Dweb=enabled), the lecture's index.html is the
#   interactive page with the installed engine inlined (a marker appended
#   to the installed cosim-engine.js shows up in it), else the static
#   lesson with a note naming the folders looked in;
# - the README, the docs and the man page are installed.
# Usage: install.sh MESON BUILD_ROOT SOURCE_ROOT
set -u
meson=$1 build=$(realpath "$2") src=$(realpath "$3")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$meson" install -C "$build" --no-rebuild --destdir "$work/stage" --quiet >"$work/install.log" 2>&1 \
    || { cat "$work/install.log"; echo "FAIL: meson install exited $?"; exit 1; }
bin=$(find "$work/stage" -path '*/bin/cosim' -type f | head -1)
[ -n "$bin" ] || { echo "FAIL: no bin/cosim in the install"; exit 1; }
prefix=$(dirname "$(dirname "$bin")")
mv "$prefix" "$work/moved"
rm -rf "$work/stage"
p=$work/moved
cosim=$p/bin/cosim
[ -x "$cosim" ] || { echo "FAIL: the moved install has no bin/cosim"; exit 1; }
case "$cosim" in "$src"/* | "$build"/*) echo "FAIL: the install is inside the source or build tree"; exit 1 ;; esac

# what a user learns from is installed
for f in share/cosim/plots/spectrum.gp share/cosim/plots/sweep.gp share/cosim/scenarios/stall_per_second.ini \
         share/cosim/scenarios/gc_log.ini share/cosim/scenarios/data/g1_sample.log share/cosim/scenarios/tools/wrk2.ini \
         share/doc/cosim/README.md share/doc/cosim/docs/scenario-format.md share/doc/cosim/docs/sweeps.md \
         share/man/man1/cosim.1; do
    [ -s "$p/$f" ] || fail "not installed: $f"
done
[ -e "$p/share/doc/cosim/docs/cosim.1" ] && fail "the man page is also installed among the docs"

# the installed styles, not the source tree's: a marker in the installed copy
echo "# installed-style-marker-$$" >>"$p/share/cosim/plots/spectrum.gp"
# the browser engine, when built: installed with its page's template, marked likewise
web=0
if [ -f "$build/web/cosim-engine.js" ]; then
    web=1
    for f in share/cosim/web/cosim-engine.js share/cosim/web/uPlot.iife.min.js share/cosim/web/uPlot.min.css \
             share/cosim/web/page/explore.html; do
        [ -s "$p/$f" ] || fail "not installed: $f"
    done
    echo "/* installed-engine-marker-$$ */" >>"$p/share/cosim/web/cosim-engine.js"
fi
mkdir "$work/elsewhere" && cd "$work/elsewhere" || exit 1

# the main job, a shipped scenario by name (its data file beside it)
"$cosim" gc_log --charts spectrum -q -o run >"$work/out" 2>&1 || fail "cosim gc_log: exit $?: $(cat "$work/out")"
[ -s run/spectrum.png ] || fail "no spectrum.png from the installed styles"
grep -q "installed-style-marker-$$" run/spectrum.gp || fail "spectrum.gp did not come from the installed plots/"
# the man page's EXAMPLE (and the docs' scenarios/NAME.ini form), from here
"$cosim" stall_per_second --charts none -q || fail "cosim stall_per_second (the man page's example): exit $?"
[ -s out/stall_per_second/summary.csv ] || fail "cosim stall_per_second wrote no out/stall_per_second/"
"$cosim" scenarios/one_stall.ini --charts none -q -o o2 || fail "cosim scenarios/one_stall.ini: exit $?"
# a local file wins over a shipped scenario of the same name
sed 's/^duration = .*/duration = 3s/' "$p/share/cosim/scenarios/one_stall.ini" >one_stall.ini
"$cosim" one_stall.ini --charts none -q -o o3 || fail "a local one_stall.ini: exit $?"
grep -q '"duration_ns": 3000000000' o3/summary.json || fail "a shipped scenario was taken over the local file"
# an unknown name: the reader's message, exit 3
"$cosim" no_such_scenario --charts none -q 2>"$work/err"
[ $? -eq 3 ] || fail "an unknown scenario name: exit not 3"
grep -q '^cosim: no_such_scenario: ' "$work/err" || fail "an unknown scenario name: $(cat "$work/err")"

# a sweep and the lecture
"$cosim" sweep -q one_stall --vary tester.open.rate=10/s,20/s -o sw >"$work/out" 2>&1 \
    || fail "cosim sweep: exit $?: $(cat "$work/out")"
[ -s sw/sweep.png ] && [ -s sw/sweep.csv ] || fail "the sweep drew no sweep.png"
"$cosim" lecture -q one_stall -o L >"$work/out" 2>&1 || fail "cosim lecture: exit $?: $(cat "$work/out")"
[ -s L/index.html ] && [ -s L/lesson.html ] && [ -s L/one_stall.spectrum.svg ] || fail "the lecture wrote no page or chart"
if [ "$web" = 1 ]; then
    grep -q "installed-engine-marker-$$" L/index.html ||
        fail "the lecture's index.html has not the installed engine inlined: $(cat "$work/out")"
    grep -q "cosim: lecture: note" "$work/out" && fail "the lecture found no engine: $(cat "$work/out")"
else
    grep -qF "cosim: lecture: note: the browser engine (cosim-engine.js) was not built: it is in none of $p/bin/../share/cosim/web" \
        "$work/out" || fail "the lecture without an engine said: $(cat "$work/out")"
fi

[ "$fails" -eq 0 ] && echo "install: a moved install runs the main job, a sweep and the lecture on its own files" \
    "($([ "$web" = 1 ] && echo "the interactive page with the installed engine" || echo "no browser engine built: the static lesson"))" \
    || exit 1
