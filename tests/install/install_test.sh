#!/bin/bash
# install_test.sh — `cmake --install BUILD --prefix P` gives a tree that works from P, as an admin
# would put it into /opt/apps behind a module:
#   P/bin/gpubench list and --version (the project version), gpubench-plot --help and finding
#   P/bin/gpubench beside it,
#   gpubench-fleet finding its job scripts in P/share/gpubench/slurm and P's gpubench (dry run),
#   the man page, the documentation, and the modulefile naming P — then, with Debian's lmod
#   (skipped, 77, when it is not installed): module use, module load gpubench, gpubench --version
#   is P's, and module unload takes it off PATH again; a copy of the modulefile in another
#   (central) module folder loads P's gpubench too.
# usage: install_test.sh BUILD_DIR VERSION [lmod]   (lmod: only the module part)
set -u
build=$1 version=$2 part=${3:-tree}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
P=$work/prefix
fails=0
check() { # check WHAT COMMAND...: run it, count a failure
    local what=$1
    shift
    if "$@" >"$work/out" 2>&1; then echo "ok: $what"; else
        echo "FAIL: $what"; sed 's/^/    /' "$work/out" | head -20; fails=$((fails + 1)); fi
}
has() { grep -q -- "$1" "$2"; }

cmake --install "$build" --prefix "$P" >"$work/install.log" 2>&1 ||
    { cat "$work/install.log"; echo "FAIL: cmake --install"; exit 1; }
module=$P/share/modulefiles/gpubench/$version.lua

if [ "$part" = lmod ]; then
    init=""
    for f in /usr/share/lmod/lmod/init/bash /usr/share/lmod/*/init/bash; do
        [ -f "$f" ] && init=$f && break
    done
    [ -n "$init" ] || { echo "SKIP: Lmod is not installed (apt-get install lmod)"; exit 77; }
    cd "$work" || exit 1
    # A site's central module folder holds a copy of the modulefile: it names P itself.
    mkdir -p "$work/central/gpubench" && cp "$module" "$work/central/gpubench/"
    # A clean environment: only what Lmod needs, and a PATH without any other gpubench.
    env -i HOME="$work" PATH=/usr/bin:/bin bash -c "
        source '$init' || exit 1
        module use '$P/share/modulefiles' && module load gpubench || exit 1
        echo \"which=\$(command -v gpubench)\"
        gpubench --version | head -n 1
        echo \"root=\$GPUBENCH_ROOT\"
        man -w gpubench
        module unload gpubench
        echo \"after=\$(command -v gpubench)\"
        module unuse '$P/share/modulefiles'
        module use '$work/central' && module load gpubench && echo \"central=\$(command -v gpubench)\"
        " >"$work/lmod.out" 2>&1
    cat "$work/lmod.out"
    check "module load gpubench puts P/bin/gpubench on PATH" has "^which=$P/bin/gpubench$" "$work/lmod.out"
    check "gpubench --version says $version" has "^gpubench $version$" "$work/lmod.out"
    check "GPUBENCH_ROOT is P" has "^root=$P$" "$work/lmod.out"
    check "man finds the man page from PATH" has "^$P/share/man/man1/gpubench.1" "$work/lmod.out"
    check "module unload takes it off PATH" has "^after=$" "$work/lmod.out"
    check "a copy in a central module folder loads P's gpubench" has "^central=$P/bin/gpubench$" "$work/lmod.out"
    [ $fails = 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
    exit $((fails > 0))
fi

cd "$work" || exit 1
check "P/bin/gpubench list" "$P/bin/gpubench" list
check "P/bin/gpubench --version is $version" sh -c "'$P/bin/gpubench' --version | head -n 1 | grep -qx 'gpubench $version'"
check "P/bin/gpubench-plot --help" "$P/bin/gpubench-plot" --help
# gpubench-plot asks the gpubench beside it (not on PATH here): compare's refusal of a missing
# file, not "gpubench not found"; alone in a folder, its hint names no source tree.
env -i PATH=/usr/bin:/bin "$P/bin/gpubench-plot" speedup "$work/none.csv" >"$work/plot.out" 2>&1
check "gpubench-plot finds P/bin/gpubench" sh -c "grep -q 'none.csv' '$work/plot.out' && ! grep -q 'not found' '$work/plot.out'"
mkdir -p "$work/alone" && cp "$P/bin/gpubench-plot" "$work/alone/"
env -i PATH=/usr/bin:/bin "$work/alone/gpubench-plot" speedup "$work/none.csv" >"$work/plot.out" 2>&1
check "gpubench-plot alone: a hint for an install" sh -c "grep -q 'gpubench not found beside $work/alone or on PATH: give --gpubench PATH' '$work/plot.out' && ! grep -q scripts/bench '$work/plot.out'"
check "gpubench-fleet --help names itself" sh -c \
    "'$P/bin/gpubench-fleet' --help | grep -q '^usage: gpubench-fleet '"
check "gpubench-fleet uses its job scripts and P's gpubench" sh -c \
    "'$P/bin/gpubench-fleet' --dry-run --tasks 1 -- --quick | grep -q '$P/share/gpubench/slurm/fleet-task.sbatch .* $P/bin/gpubench --quick'"
check "the man page" test -s "$P/share/man/man1/gpubench.1"
for f in README.md LICENSE CHANGELOG.md docs/json.md docs/gpubench.schema.json results/README.md; do
    check "documentation: $f" test -s "$P/share/doc/gpubench/$f"
done
check "the modulefile names P" has "^    root = \"$P\"$" "$module"
[ $fails = 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $((fails > 0))
