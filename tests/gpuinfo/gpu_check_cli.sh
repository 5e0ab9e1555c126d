#!/usr/bin/env bash
# gpu_check_cli.sh — scripts/gpu-check where it cannot run (every machine without a GPU, CI
# included) and on bad arguments: one line saying what is missing, the documented exit code,
# within seconds, nothing built and no result folder left behind. A fake nvidia-smi plays a
# machine whose driver is not loaded and one that lists no GPU; PATH holds only what the script
# may use, so a real nvidia-smi or nvcc cannot leak in.
#
# usage: gpu_check_cli.sh SOURCE_DIR
set -u
src=$(cd "${1:?usage: gpu_check_cli.sh SOURCE_DIR}" && pwd)
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
bin=$work/bin
mkdir -p "$bin"
for t in bash sh env dirname basename sed grep head tail tr cut date hostname mkdir cat awk \
    pkg-config cmake nproc uname sort; do
    p=$(command -v $t) && ln -s "$p" "$bin/$t"
done
fails=0 cases=0

# check NAME WANT_RC REGEX [ENV=VALUE...] -- ARGS...
check() {
    local name=$1 want=$2 regex=$3 envs=()
    shift 3
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    cases=$((cases + 1))
    local t0=$SECONDS
    (cd "$work" && env -i PATH="$bin" HOME="$work" CUDA_HOME=/nonexistent "${envs[@]}" \
        bash "$src/scripts/gpu-check" --out "$work/out" --build "$work/build" "$@" \
        >"$work/stdout" 2>"$work/stderr")
    local rc=$? why=""
    [ "$rc" = "$want" ] || why="exit $rc, expected $want"
    grep -Eq -- "$regex" "$work/stderr" "$work/stdout" || why="$why; output does not match /$regex/"
    if [ "$want" != 0 ]; then
        [ "$(grep -c . "$work/stderr")" = 1 ] || why="$why; not one line on stderr"
        [ ! -e "$work/build" ] || why="$why; a build folder was made"
        [ ! -e "$work/out" ] || why="$why; a result folder was left"
    fi
    [ $((SECONDS - t0)) -le 10 ] || why="$why; took $((SECONDS - t0)) s"
    rm -rf "$work/build" "$work/out"
    if [ -n "$why" ]; then
        echo "FAIL $name: ${why#; }"
        sed 's/^/    /' "$work/stderr"
        fails=$((fails + 1))
    else
        echo "ok   $name: $(head -n 1 "$work/stderr")"
    fi
}

fake_smi() { # fake_smi EXIT_CODE TEXT — an nvidia-smi that prints TEXT and exits EXIT_CODE
    printf '#!/bin/sh\necho "%s"\nexit %s\n' "$2" "$1" >"$bin/nvidia-smi"
    chmod +x "$bin/nvidia-smi"
}

check help 0 "^usage: scripts/gpu-check" -- --help
check unknown_option 2 "^gpu-check: unknown option '--bogus'" -- --bogus
check budget_text 2 "^gpu-check: --budget: 'soon' is not a number" -- --budget soon
check budget_small 2 "^gpu-check: --budget: '5' is not a number of seconds" -- --budget 5
check budget_missing 2 "^gpu-check: --budget: missing value" -- --budget
check no_driver 3 "^gpu-check: no NVIDIA driver: nvidia-smi not found$" --
fake_smi 9 "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."
check driver_not_loaded 3 "^gpu-check: no NVIDIA driver loaded: nvidia-smi: NVIDIA-SMI has failed" --
fake_smi 0 ""
check no_gpu 3 "^gpu-check: no NVIDIA GPU: nvidia-smi lists none$" --
fake_smi 0 "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-00000000)"
check no_toolkit 3 "^gpu-check: no CUDA toolkit: nvcc not found" --
printf '#!/bin/sh\necho "Cuda compilation tools, release 13.0"\n' >"$bin/nvcc"
chmod +x "$bin/nvcc"
check deps_missing 3 "^gpu-check: --deps /nonexistent: no usr/ inside" -- --deps /nonexistent
check no_openblas 3 "^gpu-check: no OpenBLAS or hwloc" PKG_CONFIG_LIBDIR=/nonexistent --

echo "$((cases - fails)) of $cases cases passed"
[ $fails = 0 ]
