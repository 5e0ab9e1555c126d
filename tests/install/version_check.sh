#!/bin/sh
# version_check.sh — one version: project(VERSION) of CMakeLists.txt is what `gpubench --version`
# prints and what CHANGELOG.md's newest entry names.
# usage: version_check.sh GPUBENCH VERSION CHANGELOG
set -u
gpubench=$1 version=$2 changelog=$3
fails=0
first=$("$gpubench" --version | head -n 1)
[ "$first" = "gpubench $version" ] || { echo "FAIL: --version says '$first', CMake $version"; fails=1; }
newest=$(sed -n 's/^## \([0-9][0-9.]*\).*/\1/p' "$changelog" | head -n 1)
[ "$newest" = "$version" ] || { echo "FAIL: CHANGELOG.md's newest entry is '$newest', CMake $version"; fails=1; }
[ $fails = 0 ] && echo "1 passed, 0 failed" || { echo "0 passed, 1 failed"; exit 1; }
