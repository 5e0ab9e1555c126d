#!/bin/sh
# man_test.sh — the generated man page gpubench(1) renders without a warning (`man --warnings
# -l`, as lintian checks pages, and like lintian ignoring "cannot adjust line" and "can't break
# line": a long word at 80 columns is typesetting, not an error) and holds every command's usage
# and every option of every command's --help: it was generated from them (cmake/manpage.sh), so
# nothing may be lost on the way.
# usage: man_test.sh GPUBENCH MANPAGE
set -u
gpubench=$1 page=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -s "$page" ] || { echo "FAIL: no man page $page (help2man missing at build time?)"; exit 1; }
command -v man >/dev/null || { echo "SKIP: no man (apt-get install man-db)"; exit 77; }
LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$page" >"$work/page" 2>"$work/all"
rc=$?
grep -v "warning.*: \(cannot adjust line\|can't break line\)" "$work/all" >"$work/warn"
fails=0
if [ $rc != 0 ] || [ -s "$work/warn" ]; then
    echo "FAIL: man -l exit $rc, warnings:"; cat "$work/warn"; fails=$((fails + 1))
fi
# Rendered text with hyphenation and line breaks undone, so an option is one word.
tr '\n' ' ' <"$work/page" | sed 's/‐ *//g; s/  */ /g' >"$work/flat"
for cmd in "" list doctor compare merge; do
    $gpubench $cmd --help >"$work/help" 2>&1
    grep -o -- '^ *\(-[a-zA-Z], \)\{0,1\}--[a-z][a-z-]*' "$work/help" | sed 's/^ *//' |
        while read -r opt; do
            grep -qF -- "$opt" "$work/flat" || { echo "FAIL: gpubench $cmd: $opt is not in the page"; echo x >>"$work/missing"; }
        done
    first=$(head -n 1 "$work/help" | sed 's/^usage: *//; s/   .*//')
    grep -qF -- "$first" "$work/flat" || { echo "FAIL: '$first' is not in the page"; fails=$((fails + 1)); }
done
[ -f "$work/missing" ] && fails=$((fails + 1))
for section in NAME SYNOPSIS DESCRIPTION "GPUBENCH DOCTOR" "GPUBENCH COMPARE" "GPUBENCH MERGE" \
    "GPUBENCH LIST" "EXIT STATUS" FILES "SEE ALSO"; do
    grep -q "^$section" "$work/page" || { echo "FAIL: no section $section"; fails=$((fails + 1)); }
done
version=$($gpubench --version | head -n 1)
grep -q "$version" "$work/page" || { echo "FAIL: the page does not name $version"; fails=$((fails + 1)); }
[ $fails = 0 ] && echo "1 passed, 0 failed" || { echo "0 passed, 1 failed"; exit 1; }
