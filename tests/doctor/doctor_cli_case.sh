#!/bin/sh
# doctor_cli_case.sh — one CLI test of `gpubench doctor`: run the command, check its exit code
# and that its output (stdout + stderr) matches every pattern given with -e (and none given with
# -x). A usage error (exit 2) must be exactly one line. With --nogpu the case is skipped (exit 77)
# on a machine where an NVIDIA driver is loaded, because it describes a machine without one.
# usage: doctor_cli_case.sh [--nogpu] EXPECTED_EXIT [-e REGEX]... [-x REGEX]... -- COMMAND [ARGS...]
set -u
if [ "$1" = --nogpu ]; then
    shift
    if [ -e /proc/driver/nvidia/version ]; then
        echo "skipped: an NVIDIA driver is loaded here; this case is for machines without one"
        exit 77
    fi
fi
want_rc=$1
shift
must="" mustnot=""
nl='
'
while [ $# -gt 0 ] && [ "$1" != -- ]; do
    case $1 in
    -e) must="$must$2$nl" ;;
    -x) mustnot="$mustnot$2$nl" ;;
    *) echo "doctor_cli_case.sh: bad argument '$1'"; exit 2 ;;
    esac
    shift 2
done
shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$@" >"$out" 2>&1
rc=$?
fail=0
if [ "$rc" != "$want_rc" ]; then
    echo "FAIL: exit code $rc, expected $want_rc"
    fail=1
fi
# Read the patterns line by line (they may contain spaces).
printf '%s' "$must" | while IFS= read -r re; do
    grep -Eq -- "$re" "$out" || { echo "FAIL: output does not match /$re/"; exit 1; }
done || fail=1
printf '%s' "$mustnot" | while IFS= read -r re; do
    ! grep -Eq -- "$re" "$out" || { echo "FAIL: output matches /$re/"; exit 1; }
done || fail=1
if [ "$want_rc" = 2 ] && [ "$(grep -c . "$out")" != 1 ]; then
    echo "FAIL: a usage error must be one line, got $(grep -c . "$out")"
    fail=1
fi
echo "--- output of: $*"
cat "$out"
[ $fail = 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $fail
