#!/bin/sh
# cmake_host_check.sh — a configure with a host compiler the toolkit refuses, or cannot find,
# stops before nvcc runs with one line that names it as given (cmake/cuda_archs.cmake,
# cmake/cuda_setup.cmake): GCC 12 for CUDA 11.8 ("... and /usr/bin/g++ is GCC 12: add
# -DCMAKE_CUDA_HOST_COMPILER=g++-11", never a CMake list such as ";/usr/bin/g++"), and a g++-N
# that is neither on PATH nor beside nvcc.
# usage: cmake_host_check.sh SOURCE_DIR NVCC    (NVCC: a CUDA 11.8 nvcc; exit 77 when the
#        system's g++ is one that toolkit accepts, so that there is nothing to refuse)
set -u
src=$1 nvcc=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pass=0 fail=0
gxx=$(command -v g++) || { echo "no g++ on PATH: skipped"; exit 77; }
major=$("$gxx" -dumpversion | sed 's/\..*//')
[ "$major" -gt 11 ] || { echo "$gxx is GCC $major, which CUDA 11.8 accepts: skipped"; exit 77; }

cmake -S "$src" -B "$dir/a" -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_HOST_COMPILER="$gxx" \
    >"$dir/a.out" 2>&1 && { echo "FAIL: CUDA 11.8 with GCC $major configured"; fail=$((fail + 1)); }
cat "$dir/a.out"
want="gpubench: CMAKE_CUDA_HOST_COMPILER: CUDA 11.8 accepts GCC 11 and older, and $gxx is GCC $major: add -DCMAKE_CUDA_HOST_COMPILER=g++-11\$"
if [ "$(grep -c "^ *$want" "$dir/a.out")" = 1 ] && ! grep -q ";$gxx" "$dir/a.out"; then
    pass=$((pass + 1))
else
    echo "FAIL: want one line '$want'"
    fail=$((fail + 1))
fi
if grep -q "nvcc fatal\|CMakeDetermineCompilerId" "$dir/a.out"; then
    echo "FAIL: nvcc ran before the check"
    fail=$((fail + 1))
fi

cmake -S "$src" -B "$dir/b" -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_HOST_COMPILER=g++-99 \
    >"$dir/b.out" 2>&1 && { echo "FAIL: a missing g++-99 configured"; fail=$((fail + 1)); }
cat "$dir/b.out"
if grep -q "gpubench: CMAKE_CUDA_HOST_COMPILER=g++-99: not found on PATH or beside $nvcc" \
    "$dir/b.out"; then
    pass=$((pass + 1))
else
    echo "FAIL: no line saying g++-99 is not found"
    fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
