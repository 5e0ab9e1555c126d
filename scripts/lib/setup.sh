# setup.sh — sourced by scripts/bench and scripts/test: install what is missing (Debian or
# Ubuntu, as root or with sudo), then configure and build into build/.
#
# Packages: the build needs a C compiler, cmake, pkg-config, OpenBLAS and hwloc, and help2man
# for the man page. The tests also need the system python3 with matplotlib (plots), jsonschema
# (the JSON schema) and scipy (Google Benchmark's compare.py, from libbenchmark-tools), clang's
# libFuzzer runtime (fuzz target), man-db (`man -l` on the man page), lmod (the modulefile) and
# dpkg-dev (dpkg-shlibdeps for the .deb). The README lists them. The CUDA toolkit is not
# installed here: the build uses it when nvcc is found, and is CPU-only otherwise (see README,
# "Building for an old card").

GPUBENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
GPUBENCH_BUILD_PACKAGES="build-essential cmake pkg-config libopenblas-dev libhwloc-dev help2man"
GPUBENCH_TEST_PACKAGES="python3 python3-matplotlib python3-jsonschema python3-scipy clang
  libclang-rt-dev man-db lmod libbenchmark-tools dpkg-dev"

gpubench_log() { printf 'gpubench setup: %s\n' "$*" >&2; }

# Install the packages of "$@" that dpkg does not report as installed.
gpubench_install_missing() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
            missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null || {
            gpubench_log "missing packages ${missing[*]}: run as root or install sudo"
            return 1
        }
        sudo=sudo
    fi
    command -v apt-get >/dev/null || {
        gpubench_log "missing packages ${missing[*]} and no apt-get: install them by hand"
        return 1
    }
    gpubench_log "installing ${missing[*]}"
    $sudo apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
            "${missing[@]}" >/dev/null
}

# Say, before any test runs, that the slurm_fleet test will install slurm-wlm and munge
# system-wide (tests/merge/local_slurm.sh) — unless they are there, or GPUBENCH_NO_SLURM_INSTALL
# is set, which makes that test skip instead.
gpubench_slurm_notice() {
    local p missing=""
    [ -n "${GPUBENCH_NO_SLURM_INSTALL:-}" ] && return 0
    for p in slurm-wlm munge; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
            missing="$missing $p"
    done
    [ -z "$missing" ] && return 0
    gpubench_log "the slurm_fleet test will install${missing} system-wide with apt-get (their" \
        "services are not started: the test runs its own munged, slurmctld and slurmd in a" \
        "temporary folder and stops them). To skip it instead: GPUBENCH_NO_SLURM_INSTALL=1" \
        "./scripts/test, or ./scripts/test -LE slurm"
}

# The cuobjdump tests/gpuinfo/sass_check.py reads the build's machine code with, where the CUDA
# toolkit on PATH has none (a toolkit installed without its binary utilities): PyPI's
# nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm wheels for CUDA 13 (13.2, which reads every CUDA
# 13 binary), unpacked once into ~/.cache/gpubench/cuobjdump-13.2.86. Prints
# -DGPUBENCH_CUOBJDUMP=PATH for cmake, or nothing where the toolkit has its own, is not CUDA 13,
# or the download failed (said on stderr; sass_check then says it is skipped).
gpubench_cuobjdump_arg() {
    local nvcc ver=13.2.86 dir bin
    nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    [ -x "$nvcc" ] && [ ! -x "$(dirname "$nvcc")/cuobjdump" ] || return 0
    "$nvcc" --version | grep -q 'release 13\.' || return 0
    dir=${XDG_CACHE_HOME:-$HOME/.cache}/gpubench/cuobjdump-$ver
    bin=$dir/nvidia/cu13/bin/cuobjdump
    if [ ! -x "$bin" ]; then
        gpubench_log "downloading cuobjdump and nvdisasm $ver (PyPI wheels) for sass_check"
        gpubench_pypi_unpack "$dir" "nvidia-cuda-cuobjdump==$ver" "nvidia-cuda-nvdisasm==$ver" &&
            chmod +x "$dir"/nvidia/cu13/bin/* || {
            gpubench_log "could not fetch cuobjdump $ver: sass_check will be skipped in build/"
            return 0
        }
    fi
    echo "-DGPUBENCH_CUOBJDUMP=$bin"
}

# Download the PyPI wheels "$@" (pinned requirement strings) with pip and unpack them into the
# folder $1, which appears whole or not at all (built in $1.partial, then renamed).
gpubench_pypi_unpack() {
    local dir=$1 py w
    shift
    for py in python3 /usr/bin/python3; do
        "$py" -m pip --version >/dev/null 2>&1 && break
    done
    rm -rf "$dir.partial" && mkdir -p "$dir.partial" &&
        "$py" -m pip download -q --no-deps --only-binary=:all: -d "$dir.partial" "$@" >&2 &&
        (for w in "$dir.partial"/*.whl; do
            "$py" -m zipfile -e "$w" "$dir.partial" || exit 1
        done) &&
        rm -rf "$dir" && mv "$dir.partial" "$dir"
}

# PyPI's scipy-openblas32 wheel, a current OpenBLAS (its symbols prefixed scipy_), unpacked once
# into ~/.cache/gpubench/scipy-openblas32-VERSION: prints the folder holding its include/ and
# lib/ (what cmake -DGPUBENCH_OPENBLAS=pypi builds against; cmake/openblas.cmake runs this), or
# says on stderr why not and returns 1. The version is pinned: a row's numbers must not change
# because PyPI published a new build.
GPUBENCH_OPENBLAS_PYPI_VERSION=0.3.34.481.3
gpubench_openblas_pypi() {
    local ver=$GPUBENCH_OPENBLAS_PYPI_VERSION dir
    dir=${XDG_CACHE_HOME:-$HOME/.cache}/gpubench/scipy-openblas32-$ver
    if [ ! -f "$dir/scipy_openblas32/include/cblas.h" ]; then
        gpubench_log "downloading OpenBLAS: PyPI scipy-openblas32==$ver into $dir"
        gpubench_pypi_unpack "$dir" "scipy-openblas32==$ver" || {
            gpubench_log "could not fetch scipy-openblas32==$ver (no network or no pip?)"
            return 1
        }
    fi
    echo "$dir/scipy_openblas32"
}

# Split "$@" into GPUBENCH_CMAKE_ARGS (every -DNAME=VALUE: a CMake cache setting) and
# GPUBENCH_REST_ARGS (the rest, in order: for gpubench or ctest).
gpubench_split_args() {
    GPUBENCH_CMAKE_ARGS=() GPUBENCH_REST_ARGS=()
    local a
    for a in "$@"; do
        case $a in
        -D?*=*) GPUBENCH_CMAKE_ARGS+=("$a") ;;
        *) GPUBENCH_REST_ARGS+=("$a") ;;
        esac
    done
}

# Paths given to a script are the user's, relative to the folder it was run from: make the
# relative paths of -o/--out, --json and --samples in GPUBENCH_REST_ARGS absolute (against $PWD),
# before the script changes to the repository's folder. An empty path stays empty, for gpubench
# to refuse.
gpubench_user_paths() {
    local a path=0 out=()
    for a in ${GPUBENCH_REST_ARGS[@]+"${GPUBENCH_REST_ARGS[@]}"}; do
        if [ $path = 1 ]; then
            a=$(gpubench_abs_path "$a") path=0
        else
            case $a in
            -o | --out | --json | --samples) path=1 ;;
            --out=* | --json=* | --samples=*) a="${a%%=*}=$(gpubench_abs_path "${a#*=}")" ;;
            -o?*) a="-o$(gpubench_abs_path "${a#-o}")" ;;
            esac
        fi
        out+=("$a")
    done
    GPUBENCH_REST_ARGS=(${out[@]+"${out[@]}"})
}

# $1 made absolute against $PWD (unchanged when empty or absolute).
gpubench_abs_path() {
    case $1 in
    '' | /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$PWD" "$1" ;;
    esac
}

# Configure and build into $1 (default build/) with extra cmake arguments after it.
gpubench_build() {
    local dir=${1:-$GPUBENCH_ROOT/build}
    shift || true
    # nvcc lives outside PATH in the toolkit's usual place on many machines.
    if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
        export PATH=/usr/local/cuda/bin:$PATH
    fi
    mkdir -p "$dir"
    cmake -S "$GPUBENCH_ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >"$dir/configure.log" 2>&1 ||
        { cat "$dir/configure.log" >&2; return 1; }
    grep 'gpubench:' "$dir/configure.log" | sed 's/^-- //' >&2
    cmake --build "$dir" -j "$(nproc)" >"$dir/build.log" 2>&1 ||
        { tail -50 "$dir/build.log" >&2; return 1; }
}
