#!/usr/bin/env bash
# The digests of every output of every scenario in scenarios/ (and one sweep
# and one replicated run): proof that a change meant to keep the numbers
# (a refactor, a speed-up) changed no byte. PNG/SVG/PDF pictures are left
# out (they depend on gnuplot's version and fonts); the .gp scripts are in,
# less their "# script PATH" comment line, and so is the text summary.
#
# Usage: digests.sh [--check|--update] [COSIM] [SOURCE_ROOT]
#   --check (default): compare with tests/golden/digests.txt, exit 1 on any
#   difference, naming the files; --update: rewrite digests.txt (commit it
#   with a message saying which numbers changed and why).
set -u
mode=--check
case ${1:-} in --check|--update) mode=$1; shift ;; esac
root=$(realpath "${2:-$(dirname "$0")/../..}")
cosim=$(realpath "${1:-$root/build/cosim}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root" || exit 1

digest_dir() { # NAME DIR: one line per file, "NAME/FILE SHA256"
    local f
    for f in $(cd "$2" && ls | LC_ALL=C sort); do
        case $f in *.png|*.svg|*.pdf) continue ;; esac
        printf '%s/%s %s\n' "$1" "$f" "$(grep -v '^# script ' "$2/$f" | sha256sum | cut -d' ' -f1)"
    done
}

{
    for sc in scenarios/*.ini scenarios/tools/*.ini; do
        n=$(basename "$sc" .ini)
        case $sc in scenarios/tools/*) n=tools_$n ;; esac
        "$cosim" "$sc" -o "$work/$n" --no-plot >"$work/$n.txt" 2>"$work/$n.err" \
            || { echo "$n: cosim exited $?: $(cat "$work/$n.err")" >&2; exit 2; }
        printf '%s/stdout %s\n' "$n" "$(grep -v '^wrote ' "$work/$n.txt" | sha256sum | cut -d' ' -f1)"
        digest_dir "$n" "$work/$n"
    done
    "$cosim" scenarios/one_stall.ini -o "$work/reps" --no-plot --replications 3 >"$work/reps.txt" 2>/dev/null \
        || { echo "replications: cosim failed" >&2; exit 2; }
    printf 'replications/stdout %s\n' "$(grep -v '^wrote ' "$work/reps.txt" | sha256sum | cut -d' ' -f1)"
    digest_dir replications "$work/reps"
    "$cosim" sweep -q scenarios/one_stall.ini --vary tester.open.rate=50/s..100/s:3 --replications 2 \
        -o "$work/sweep" --no-plot >/dev/null 2>&1 || { echo "sweep: cosim failed" >&2; exit 2; }
    digest_dir sweep "$work/sweep"
} >"$work/digests.txt" || exit 2

if [ "$mode" = --update ]; then
    cp "$work/digests.txt" tests/golden/digests.txt
    echo "digests.sh: wrote tests/golden/digests.txt ($(wc -l <"$work/digests.txt") files)"
    exit 0
fi
if ! diff -u tests/golden/digests.txt "$work/digests.txt" >"$work/diff"; then
    echo "digests.sh: outputs differ from tests/golden/digests.txt:"
    grep '^[-+][^-+]' "$work/diff"
    exit 1
fi
echo "digests.sh: $(wc -l <"$work/digests.txt") outputs byte-identical"
