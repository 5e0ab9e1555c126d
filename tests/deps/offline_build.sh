#!/usr/bin/env bash
# offline_build.sh — the offline-dependencies path end to end: scripts/offline-deps fetches
# OpenBLAS and hwloc into a folder, a CPU-only build takes them from there (the system's .pc files
# hidden from pkg-config), the binary resolves them from that folder at run time, and its unit
# tests and a --quick run pass.
#
# usage: offline_build.sh SOURCE_DIR WORK_DIR      exit 77 (skipped) when no package repository
#                                                  can be reached
set -u
src=${1:?usage: offline_build.sh SOURCE_DIR WORK_DIR}
work=${2:?usage: offline_build.sh SOURCE_DIR WORK_DIR}
rm -rf "$work" && mkdir -p "$work" || exit 1
deps=$work/deps build=$work/build
fail() { echo "FAIL: $*"; exit 1; }

if ! "$src/scripts/offline-deps" "$deps" >"$work/deps.log" 2>&1; then
    cat "$work/deps.log"
    grep -q "apt-get update failed\|apt-get download failed" "$work/deps.log" &&
        { echo "SKIP: no package repository reachable"; exit 77; }
    fail "scripts/offline-deps"
fi
echo "ok   offline-deps: $(wc -l <"$deps/gpubench-deps.txt") packages"

cmake -S "$src" -B "$build" -DGPUBENCH_CUDA=OFF -DGPUBENCH_DEPS_PREFIX="$deps" \
    -DCMAKE_BUILD_TYPE=Release >"$work/configure.log" 2>&1 ||
    { cat "$work/configure.log"; fail "configure"; }
grep -q "dependencies from $deps" "$work/configure.log" || fail "configure did not use the prefix"
for v in OPENBLAS_INCLUDE_DIRS HWLOC_INCLUDE_DIRS pkgcfg_lib_OPENBLAS_openblas pkgcfg_lib_HWLOC_hwloc; do
    val=$(grep "^$v:" "$build/CMakeCache.txt" | cut -d= -f2-)
    case "$val" in "$deps"/*) ;; *) fail "$v=$val is not in the prefix" ;; esac
done
echo "ok   configure: headers and libraries from the prefix"
cmake --build "$build" -j "$(nproc)" >"$work/build.log" 2>&1 || { tail -30 "$work/build.log"; fail "build"; }

libs=$(ldd "$build/gpubench")
for lib in libopenblas.so.0 libhwloc.so.15 libgfortran.so.5; do
    echo "$libs" | grep -q "$lib => $deps/" ||
        { echo "$libs"; fail "$lib is not loaded from the prefix"; }
done
echo "ok   run time: OpenBLAS, hwloc and libgfortran load from the prefix (rpath)"

(cd "$build" && ctest -L unit --output-on-failure >"$work/ctest.log" 2>&1) ||
    { cat "$work/ctest.log"; fail "unit tests of the prefix build"; }
echo "ok   unit tests: $(grep -o "[0-9]*% tests passed.*" "$work/ctest.log" | head -1)"
"$build/gpubench" --quick -d cpu --reps 1 --warmup 0 --min-time 0 --out "$work/r.csv" \
    >"$work/run.log" 2>&1 || { cat "$work/run.log"; fail "gpubench --quick -d cpu"; }
grep -q ",ok," "$work/r.csv" || fail "no ok row"
echo "ok   gpubench --quick -d cpu from the prefix build"
rm -rf "$work"
