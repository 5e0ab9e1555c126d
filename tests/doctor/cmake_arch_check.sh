#!/bin/sh
# cmake_arch_check.sh — a configure that asks the found toolkit for an architecture it cannot
# build stops before nvcc runs, with one line naming the toolkit that can and its complete
# configure command (cmake/cuda_archs.cmake), instead of CMake's compiler-test dump.
# usage: cmake_arch_check.sh SOURCE_DIR NVCC ARCH WANT_TOOLKIT
set -u
src=$1 nvcc=$2 arch=$3 want=$4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cmake -S "$src" -B "$dir/b" -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES="$arch" \
    >"$dir/out" 2>&1
rc=$?
cat "$dir/out"
fail=0
[ "$rc" != 0 ] || { echo "FAIL: the configure succeeded"; fail=1; }
lines=$(grep -c "^ *gpubench: CMAKE_CUDA_ARCHITECTURES=$arch: CUDA [0-9.]* ($nvcc) .*CUDA $want is the .* toolkit that builds it: cmake -S $src -B build-cuda$want -DCMAKE_CUDA_COMPILER=/usr/local/cuda-$want/bin/nvcc -DCMAKE_CUDA_HOST_COMPILER=g++-[0-9]* -DCMAKE_CUDA_ARCHITECTURES=$arch\$" "$dir/out")
[ "$lines" = 1 ] || { echo "FAIL: $lines lines name CUDA $want for $arch, want 1"; fail=1; }
if grep -q "nvcc fatal\|CMakeTestCUDACompiler" "$dir/out"; then
    echo "FAIL: nvcc ran (CMake's compiler test failed) before the check"
    fail=1
fi
[ $fail = 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $fail
