#!/bin/bash
# package_test.sh — CPack's packages of this build, used as an admin would:
#   .deb     built with `cpack -G DEB`; its control fields (name, the project version,
#            Depends from dpkg-shlibdeps naming OpenBLAS and hwloc); installed with dpkg into a
#            throwaway root (dpkg --root, whose database knows only the packages the .deb
#            depends on, as this machine has them); `gpubench --version` and
#            `gpubench --quick -d cpu` run from it; removed again with dpkg, leaving no file.
#   .tar.gz  built with `cpack -G TGZ`; unpacked elsewhere than any prefix it was made for, its
#            modulefile still finds it (Debian's lmod; that part skipped without lmod).
# Nothing is installed on this machine itself. usage: package_test.sh BUILD_DIR VERSION
set -u
build=$1 version=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
ok() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
for tool in cpack dpkg dpkg-deb dpkg-shlibdeps; do
    command -v "$tool" >/dev/null || { echo "SKIP: no $tool (apt-get install dpkg-dev)"; exit 77; }
done

(cd "$build" && cpack -G "DEB;TGZ" -B "$work/pkg") >"$work/cpack.log" 2>&1 ||
    { cat "$work/cpack.log"; echo "FAIL: cpack"; exit 1; }
deb=$(ls "$work"/pkg/gpubench_"$version"_*.deb 2>/dev/null)
tgz=$(ls "$work"/pkg/gpubench-"$version"-*.tar.gz 2>/dev/null)
[ -f "$deb" ] && [ -f "$tgz" ] || { ls -R "$work/pkg"; echo "FAIL: no .deb or .tar.gz"; exit 1; }
ok "cpack made $(basename "$deb") and $(basename "$tgz")"

# --- the .deb's control fields ---------------------------------------------------------------
[ "$(dpkg-deb -f "$deb" Package)" = gpubench ] && [ "$(dpkg-deb -f "$deb" Version)" = "$version" ] &&
    ok "Package gpubench, Version $version" || fail "control: $(dpkg-deb -f "$deb" Package Version)"
depends=$(dpkg-deb -f "$deb" Depends)
case $depends in *libopenblas*libhwloc* | *libhwloc*libopenblas*) ok "Depends: $depends" ;;
*) fail "Depends does not name OpenBLAS and hwloc: $depends" ;; esac

# --- a throwaway root whose dpkg database holds the packages the .deb depends on --------------
root=$work/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers"
: >"$root/var/lib/dpkg/status"
for name in $(echo "$depends" | tr ',|' '\n\n' | sed 's/(.*//; s/ //g; s/:.*//' | sort -u); do
    # the package itself, or (a virtual name) the installed packages that provide it
    for p in $name $(dpkg-query -W -f='${Package} ${Provides}\n' 2>/dev/null |
        awk -v n="$name" '{ for (i = 2; i <= NF; i++) { sub(/[(,].*/, "", $i); if ($i == n) print $1 } }'); do
        dpkg-query -s "$p" >>"$root/var/lib/dpkg/status" 2>/dev/null && echo >>"$root/var/lib/dpkg/status"
    done
done
dpkg_root() { dpkg --root="$root" --force-not-root --log=/dev/null "$@"; }
if dpkg_root -i "$deb" >"$work/dpkg.log" 2>&1; then ok "dpkg --root -i"; else
    cat "$work/dpkg.log"; fail "dpkg --root -i"; fi
bin=$root/usr/bin/gpubench
first=$("$bin" --version 2>&1 | head -n 1)
[ "$first" = "gpubench $version" ] && ok "installed gpubench --version: $first" ||
    fail "installed gpubench --version: $first"
mkdir -p "$work/run" && (cd "$work/run" && "$bin" --quick -d cpu) >"$work/run.out" 2>&1
rc=$?
csv=$(ls "$work"/run/results/*.csv 2>/dev/null | head -n 1)
if [ $rc = 0 ] && [ -n "$csv" ] && [ "$(grep -c ',ok,' "$csv")" -gt 0 ]; then
    ok "installed gpubench --quick -d cpu: exit 0, $(grep -c ',ok,' "$csv") ok rows"
else
    cat "$work/run.out"; fail "installed gpubench --quick -d cpu: exit $rc"
fi
grep -q '^    root = "/usr"$' "$root/usr/share/modulefiles/gpubench/$version.lua" &&
    ok "the modulefile names /usr" || fail "the modulefile does not name /usr"
[ -s "$root/usr/share/man/man1/gpubench.1" ] && ok "man page installed" || fail "no man page"
if dpkg_root -r gpubench >"$work/dpkg-r.log" 2>&1 && [ -z "$(find "$root/usr" -type f 2>/dev/null)" ]; then
    ok "dpkg --root -r: nothing left"
else
    cat "$work/dpkg-r.log"; find "$root/usr" -type f; fail "dpkg --root -r"
fi

# --- the .tar.gz, unpacked somewhere else: relocatable, and its module finds it -----------------
mkdir -p "$work/elsewhere" && tar -xzf "$tgz" -C "$work/elsewhere"
top=$(ls -d "$work"/elsewhere/gpubench-*)
rm -rf "$work/pkg/_CPack_Packages" # the staging tree: the unpacked copy must not lean on it
grep -q '^    root = ""$' "$top/share/modulefiles/gpubench/$version.lua" &&
    ok ".tar.gz: the modulefile names no prefix (it was staged, not installed)" ||
    fail ".tar.gz: the modulefile names a prefix: $(grep '^    root =' "$top"/share/modulefiles/gpubench/*.lua)"
"$top/bin/gpubench" --version | head -n 1 | grep -qx "gpubench $version" &&
    ok ".tar.gz: bin/gpubench runs" || fail ".tar.gz: bin/gpubench"
init=$(ls /usr/share/lmod/lmod/init/bash /usr/share/lmod/*/init/bash 2>/dev/null | head -n 1)
if [ -n "$init" ]; then
    got=$(cd "$work" && env -i HOME="$work" PATH=/usr/bin:/bin bash -c "source '$init' &&
          module use '$top/share/modulefiles' && module load gpubench && command -v gpubench" 2>&1)
    [ "$got" = "$top/bin/gpubench" ] && ok ".tar.gz: its modulefile finds it where it was unpacked" ||
        fail ".tar.gz: module load gave: $got"
else
    echo "note: no Lmod here, the .tar.gz modulefile is not loaded"
fi
[ $fails = 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $((fails > 0))
