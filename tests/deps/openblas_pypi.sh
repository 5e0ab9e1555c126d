#!/usr/bin/env bash
# openblas_pypi.sh — a build against another OpenBLAS, end to end (cmake/openblas.cmake):
#  - -DGPUBENCH_OPENBLAS=pypi: PyPI's scipy-openblas32 (symbols prefixed scipy_) fetched into
#    ~/.cache/gpubench, a CPU-only build linked to it and loading it through its RPATH; -V,
#    doctor and a gemm row's blas_lib name it; f32 and f64 rows verify, bf16 runs where that
#    OpenBLAS has cblas_sbgemm and says why not where it has none; `cmake --install` refuses;
#  - -DGPUBENCH_OPENBLAS_ROOT=DIR: a folder holding the system's OpenBLAS is configured from,
#    named and not prefixed; a folder without one is refused with a line that says what it lacks.
#
# usage: openblas_pypi.sh SOURCE_DIR WORK_DIR [C_COMPILER_LAUNCHER]
#        exit 77 (skipped) when PyPI cannot be reached (no network, no pip)
set -u
src=${1:?usage: openblas_pypi.sh SOURCE_DIR WORK_DIR [LAUNCHER]}
work=${2:?usage: openblas_pypi.sh SOURCE_DIR WORK_DIR [LAUNCHER]}
launcher=${3:-}
rm -rf "$work" && mkdir -p "$work" || exit 1
build=$work/build
fail() { echo "FAIL: $*"; exit 1; }

# shellcheck source=../../scripts/lib/setup.sh
blas_dir=$(. "$src/scripts/lib/setup.sh" && gpubench_openblas_pypi) ||
    { echo "SKIP: PyPI's scipy-openblas32 could not be fetched (no network or no pip)"; exit 77; }
echo "ok   scipy-openblas32 in $blas_dir"

cmake -S "$src" -B "$build" -DGPUBENCH_CUDA=OFF -DGPUBENCH_OPENBLAS=pypi -DBUILD_TESTING=OFF \
    -DCMAKE_BUILD_TYPE=Release ${launcher:+-DCMAKE_C_COMPILER_LAUNCHER="$launcher"} \
    >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configure"; }
line=$(grep 'gpubench: OpenBLAS [0-9]' "$work/configure.log")
echo "$line" | grep -q "OpenBLAS 0\.3\.[0-9]* ✓ (PyPI scipy-openblas32 .*symbols scipy_\*" ||
    fail "configure line: $line"
echo "ok   configure: $line"
cmake --build "$build" -j 2 --target gpubench >"$work/build.log" 2>&1 ||
    { tail -30 "$work/build.log"; fail "build"; }

g=$build/gpubench
ldd "$g" | grep -q "libscipy_openblas.so => $blas_dir/lib/" ||
    { ldd "$g"; fail "not loaded from $blas_dir/lib"; }
echo "ok   run time: libscipy_openblas.so loads from $blas_dir/lib (RPATH)"
"$g" -V | grep -q "OpenBLAS 0\.3\.[0-9]* (PyPI scipy-openblas32 " || { "$g" -V; fail "-V"; }
"$g" doctor | grep -qE "OpenBLAS .*PyPI scipy-openblas32 .*, core [A-Za-z0-9]*( \([^)]*\))?, [0-9]* threads" ||
    { "$g" doctor; fail "doctor does not name it"; }
echo "ok   -V and doctor name PyPI scipy-openblas32"

(cd "$work" && "$g" run -d cpu -w gemm -i openblas -D f32,f64,bf16 -s gemm:m=96,n=80,k=64 \
    --quick -f csv >rows.csv 2>run.err) || { cat "$work/run.err"; fail "run"; }
for t in float32 float64; do
    grep -q ",gemm,openblas,$t,.*,ok," "$work/rows.csv" || { cat "$work/rows.csv"; fail "$t row"; }
done
grep -q "(PyPI scipy-openblas32 [0-9.]*) core=" "$work/rows.csv" || fail "blas_lib does not name it"
if grep -q 'cblas_sbgemm (bf16 GEMM on the CPU) ✓' "$work/configure.log"; then
    grep -q ",gemm,openblas,bfloat16,.*,ok," "$work/rows.csv" || fail "bf16 row with cblas_sbgemm"
else
    grep -q ",gemm,openblas,bfloat16,.*,unsupported,.*no cblas_sbgemm" "$work/rows.csv" ||
        { cat "$work/rows.csv"; fail "bf16 row without cblas_sbgemm"; }
fi
echo "ok   gemm rows: f32 and f64 verify, bf16 as its cblas_sbgemm allows; blas_lib names it"

cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1 &&
    fail "install of a PyPI-OpenBLAS build went through"
tr -s ' \n' ' ' <"$work/install.log" | grep -q "which no package provides" ||
    { cat "$work/install.log"; fail "install message"; }
[ -z "$(ls -A "$work/prefix" 2>/dev/null)" ] || fail "install copied files before refusing"
echo "ok   install refused, nothing copied"

# A folder: the system's OpenBLAS laid out as include/ + lib/ (configure only).
inc=$(pkg-config --variable=includedir openblas 2>/dev/null)
lib=$(pkg-config --variable=libdir openblas 2>/dev/null)
if [ -f "$inc/cblas.h" ] && [ -f "$lib/libopenblas.so" ]; then
    mkdir -p "$work/root/lib" && ln -s "$inc" "$work/root/include" &&
        ln -s "$lib/libopenblas.so" "$work/root/lib/libopenblas.so" || fail "folder"
    cmake -S "$src" -B "$work/b2" -DGPUBENCH_CUDA=OFF -DGPUBENCH_OPENBLAS_ROOT="$work/root" \
        -DBUILD_TESTING=OFF >"$work/b2.log" 2>&1 || { cat "$work/b2.log"; fail "folder configure"; }
    line=$(grep 'gpubench: OpenBLAS [0-9]' "$work/b2.log")
    case $line in *"✓ ($work/root; RPATH"*) ;; *) fail "folder configure line: $line" ;; esac
    case $line in *symbols*) fail "the system's OpenBLAS read as prefixed: $line" ;; esac
    echo "ok   folder: $line"
else
    echo "note folder case skipped: no system OpenBLAS found by pkg-config"
fi
mkdir -p "$work/empty"
cmake -S "$src" -B "$work/b3" -DGPUBENCH_CUDA=OFF -DGPUBENCH_OPENBLAS_ROOT="$work/empty" \
    >"$work/b3.log" 2>&1 && fail "an empty folder configured"
tr -s ' \n' ' ' <"$work/b3.log" | grep -q "expected include/cblas.h and lib/lib\*openblas\*.so" ||
    { cat "$work/b3.log"; fail "empty folder message"; }
echo "ok   empty folder refused"
echo "all passed"
