#!/usr/bin/env bash
# libcosim holds no command-line entry point: no main, no sweep_main or
# sweep_check_args, no usage or option parsing, no getopt. Those live in
# cli/ (docs/hacking.md), so a test or another program can link the
# library and call its API without a CLI coming along.
# Usage: nm_cli.sh LIBCOSIM.a
set -u
lib=$1
nm=nm
command -v gcc-nm >/dev/null && nm=gcc-nm # reads the LTO objects too
syms=$("$nm" "$lib" 2>/dev/null) || { echo "nm_cli: cannot read $lib" >&2; exit 1; }
[ -n "$syms" ] || { echo "nm_cli: no symbols in $lib" >&2; exit 1; }
# the library's own API must be there, or the test proves nothing
grep -Eq ' T tester_run$' <<<"$syms" || { echo "nm_cli: tester_run not found in $lib" >&2; exit 1; }
bad=$(grep -E ' [TtU] (main|sweep_main|sweep_check_args|usage|parse_args|parse_sweep_args|getopt|getopt_long)$' \
    <<<"$syms" | sort -u)
if [ -n "$bad" ]; then
    echo "nm_cli: command-line symbols in $lib (move them to cli/):" >&2
    echo "$bad" >&2
    exit 1
fi
echo "nm_cli: no command-line symbol in $(basename "$lib")"
