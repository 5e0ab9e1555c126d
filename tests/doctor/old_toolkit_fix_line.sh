#!/usr/bin/env bash
# old_toolkit_fix_line.sh — doctor's fix line for a K40m and the cuda-11.8 preset are commands
# that work where NVIDIA's installer puts CUDA 11.8 (/usr/local/cuda-11.8): run each on a copy of
# the source tree with only that path replaced by a real CUDA 11.8 folder (scripts/old-toolkit),
# then build gpubench and the simulated device in what the fix line configured and run the
# simulated K40m's --quick check on it (tests/sim/sim_check.py: every row ok, or unsupported for
# the card's real reason).
#
# usage: old_toolkit_fix_line.sh GPUBENCH SOURCE_DIR OLD_TOOLKIT
#   GPUBENCH     a gpubench binary (its doctor prints the fix line, for a CUDA 13 build)
#   OLD_TOOLKIT  the folder scripts/old-toolkit assembled (bin/nvcc, with g++-11 beside it)
set -u
gpubench=$1 src=$2 old=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" = 0 ]
    exit $?
}
[ -x "$old/bin/nvcc" ] || { bad "no CUDA 11.8 at $old (run scripts/old-toolkit)"; finish; }

# 1. doctor's fix line: a K40m (driver R470) and a CUDA 13 build, as a K40m user sees it.
"$gpubench" doctor --assume 'cc=3.5,name="Tesla K40m",mem=12GiB,driver=470.82' \
    --assume-build 'cuda=13.0,archs=75-real 80-real 86-real 89-real 90-real 100-real 120,cublas=yes,cudnn=9.19' \
    >"$tmp/doctor.txt" 2>&1
line=$(sed -n 's/^ *fix .*rebuild with CUDA 11\.8: \(cmake .*\)$/\1/p' "$tmp/doctor.txt")
want="cmake -S . -B build-cuda11.8 -DCMAKE_CUDA_COMPILER=/usr/local/cuda-11.8/bin/nvcc"
case $line in
"$want "*) ok "doctor's fix line: $line" ;;
*) bad "no fix line starting '$want' in:"; cat "$tmp/doctor.txt"; finish ;;
esac

# A copy of the tree, so that the commands' build-cuda11.8 lands in it and not in SOURCE_DIR.
mkdir "$tmp/src"
tar -C "$src" --exclude='./build*' --exclude=./.git -cf - . | tar -C "$tmp/src" -xf -

# 2. The preset, with the toolkit's path replaced in the copy's CMakePresets.json only.
sed -i "s|/usr/local/cuda-11.8|$old|g" "$tmp/src/CMakePresets.json"
if (cd "$tmp/src" && cmake --preset cuda-11.8 -DCMAKE_CUDA_ARCHITECTURES=35) \
    >"$tmp/preset.log" 2>&1 &&
    grep -q "gpubench: CUDA ✓ 11\.8" "$tmp/preset.log" &&
    grep -q "gpubench: cuDNN ✓ 8\." "$tmp/preset.log"; then
    ok "cmake --preset cuda-11.8 configures CUDA 11.8 with cuDNN 8"
else
    bad "cmake --preset cuda-11.8:"
    cat "$tmp/preset.log"
fi
rm -rf "$tmp/src/build-cuda11.8"

# 3. The fix line itself, run from the copy's top folder: configure, build, simulated K40m.
cmd=${line//\/usr\/local\/cuda-11.8/$old}
if (cd "$tmp/src" && eval "$cmd") >"$tmp/configure.log" 2>&1; then
    ok "the fix line configures"
else
    bad "the fix line: $cmd"
    cat "$tmp/configure.log"
    finish
fi
b=$tmp/src/build-cuda11.8
# gpubench and the simulated device (the test programs are built, with every architecture, in
# the build that runs this test)
if cmake --build "$b" -j 2 --target gpubench_sim >"$tmp/build.log" 2>&1; then
    ok "and builds: $(grep -h '^CUDA' <("$b/gpubench" --version))"
else
    bad "the build"
    tail -40 "$tmp/build.log"
    finish
fi
cudnn=$(sed -n 's/.*cuDNN \([0-9.]*\).*/\1/p' <("$b/gpubench" --version))
if python3 "$src/tests/sim/sim_check.py" quick k40m --build "$b" --archs=35 --cuda 11.8 \
    --cudnn "$cudnn" --profiles-src "$src/tests/sim/profiles.c" \
    --cuobjdump "$old/bin/cuobjdump" >"$tmp/sim.log" 2>&1; then
    ok "the simulated K40m's --quick check on that build: $(tail -1 "$tmp/sim.log")"
else
    bad "the simulated K40m's --quick check on that build:"
    tail -40 "$tmp/sim.log"
fi
finish
