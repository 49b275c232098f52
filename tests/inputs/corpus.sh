#!/usr/bin/env bash
# The damaged-input corpus: each case of tests/inputs/corpus.txt reads one
# file with corpus_tool (the scenario's readers) and checks what it gives:
#   READER FILE [ARGS] | LINE          LINE must be one of the output's lines
#   READER FILE [ARGS] | same BASE     the "figures" line equals BASE's
#   READER FILE [ARGS] | bounded       under 1 s of CPU (and 256 MB of
#                                      address space where ulimit works)
# A FILE named @bomb-KIND is made first (corpus_tool bomb KIND).
# Usage: corpus.sh CORPUS_TOOL SOURCE_ROOT
set -u
tool=$(realpath "$1") root=$2
cd "$root" || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0 n=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# the memory limit: the tool must start under it (a sanitizer build does not)
limit_mem=0
( ulimit -v 262144 && "$tool" gclog /dev/null ) >/dev/null 2>&1
[ $? -eq 1 ] && limit_mem=1
[ "$limit_mem" = 1 ] || echo "note: the 256 MB limit is not checked (the tool does not start under ulimit -v)"

while IFS= read -r line; do
    case $line in ''|'#'*) continue ;; esac
    cmd=${line%% | *} want=${line#* | }
    read -r -a args <<<"$cmd"
    file=${args[1]}
    if [[ $file == @bomb-* ]]; then
        kind=${file#@bomb-}
        [ -e "$work/$kind.hlog" ] || "$tool" bomb "$kind" "$work/$kind.hlog" || fail "cannot make bomb $kind"
        args[1]="$work/$kind.hlog"
    fi
    n=$((n + 1))
    case $want in
    'same '*)
        base=${want#same }
        got=$("$tool" "${args[@]}" | grep '^figures')
        args[1]=$base
        exp=$("$tool" "${args[@]}" | grep '^figures')
        [ -n "$exp" ] || fail "$cmd: the base $base gives no figures"
        [ "$got" = "$exp" ] || fail "$cmd: figures differ from $base's without a message:
  got  $got
  want $exp"
        ;;
    bounded)
        TIMEFORMAT=%U+%S
        if [ "$limit_mem" = 1 ]; then
            t=$( { time ( ulimit -v 262144; "$tool" "${args[@]}" >"$work/out" 2>&1 ) ; } 2>&1 )
        else
            t=$( { time "$tool" "${args[@]}" >"$work/out" 2>&1 ; } 2>&1 )
        fi
        cpu=$(echo "$t" | tail -1 | awk -F+ '{ print $1 + $2 }')
        grep -qE '^error (EFBIG|ERANGE) .*limit' "$work/out" || fail "$cmd: not refused as a limit: $(head -c 300 "$work/out")"
        awk -v c="$cpu" 'BEGIN { exit !(c < 1.0) }' || fail "$cmd: $cpu s of CPU, want < 1 s"
        ;;
    *)
        "$tool" "${args[@]}" >"$work/out" 2>&1
        grep -qxF -- "$want" "$work/out" || fail "$cmd: want the line
  $want
got
$(sed 's/^/  /' "$work/out")"
        ;;
    esac
done <tests/inputs/corpus.txt
[ "$n" -ge 40 ] || fail "only $n cases"
[ "$fails" -eq 0 ] && echo "inputs corpus: $n cases pass" || exit 1
