# setup.sh — sourced by scripts/bench and scripts/test: install what is missing (Debian or
# Ubuntu, as root or with sudo), then configure and build into build/.
#
# Packages: the build needs a C compiler, cmake, pkg-config, OpenBLAS and hwloc; the tests also
# need the system python3 with matplotlib (plots) and clang's libFuzzer runtime (fuzz target).
# The CUDA toolkit is not installed here: the build uses it when nvcc is found, and is CPU-only
# otherwise (see README, "Building for an old card").

GPUBENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
GPUBENCH_BUILD_PACKAGES="build-essential cmake pkg-config libopenblas-dev libhwloc-dev"
GPUBENCH_TEST_PACKAGES="python3 python3-matplotlib clang libclang-rt-dev"

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
