#!/bin/bash
# readme_packages.sh — docs/install.md's "What the scripts install" (the README points there)
# names every package scripts/lib/setup.sh installs: ./scripts/bench's row the build packages, ./scripts/test's row
# the build and test packages (facts stated twice are tested to agree).
# usage: readme_packages.sh SOURCE_DIR
set -u
src=$1
source "$src/scripts/lib/setup.sh"
fails=0
row() { grep -F -- "| \`$1\` |" "$src/docs/install.md"; }
for p in $GPUBENCH_BUILD_PACKAGES; do
    row ./scripts/bench | grep -qw -- "$p" || { echo "FAIL: ./scripts/bench's row lacks $p"; fails=1; }
done
for p in $GPUBENCH_TEST_PACKAGES; do
    row ./scripts/test | grep -qw -- "$p" || { echo "FAIL: ./scripts/test's row lacks $p"; fails=1; }
done
row ./scripts/test | grep -q "slurm-wlm munge" || { echo "FAIL: ./scripts/test's row lacks slurm-wlm munge"; fails=1; }
[ $fails = 0 ] && echo "1 passed, 0 failed" || { echo "0 passed, 1 failed"; exit 1; }
