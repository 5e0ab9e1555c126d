#!/bin/sh
# cli_case.sh — one table-driven CLI test: run a command in a fresh folder, check its exit code,
# that its output (stdout + stderr) matches a pattern, and — for usage errors — that it left no
# result file behind.
# usage: cli_case.sh EXPECTED_EXIT REGEX COMMAND [ARGS...]
#        EXPECTED_EXIT with a '!' after it (0!): also check that no result file was left behind
set -u
want_rc=${1%!} regex=$2
clean=$([ "$want_rc" = 2 ] || [ "$1" != "$want_rc" ] && echo 1)
shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
"$@" >out.txt 2>&1
rc=$?
fail=0
if [ "$rc" != "$want_rc" ]; then
    echo "FAIL: exit code $rc, expected $want_rc"
    fail=1
fi
if ! grep -Eq -- "$regex" out.txt; then
    echo "FAIL: output does not match /$regex/"
    fail=1
fi
if [ "$want_rc" = 2 ]; then
    lines=$(grep -c . out.txt)
    if [ "$lines" != 1 ]; then
        echo "FAIL: a usage error must be one line, got $lines"
        fail=1
    fi
fi
if [ -n "$clean" ]; then
    left=$(find . -mindepth 1 ! -name out.txt)
    if [ -n "$left" ]; then
        echo "FAIL: left result files behind: $left"
        fail=1
    fi
fi
echo "--- output of: $*"
cat out.txt
[ $fail = 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $fail
