#!/bin/bash
# bench_paths.sh — the paths given to ./scripts/bench (-o, --json, --samples, in every spelling)
# are the user's: made absolute against the folder it was run from before it changes to the
# repository's folder (gpubench_user_paths, scripts/lib/setup.sh); other arguments unchanged.
# usage: bench_paths.sh SOURCE_DIR
set -u
source "$1/scripts/lib/setup.sh"
grep -q '^gpubench_user_paths$' "$1/scripts/bench" || { echo "FAIL: scripts/bench does not call gpubench_user_paths"; exit 1; }
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
gpubench_split_args -DGPUBENCH_CUDA=OFF --quick -o mine.csv --json=sub/r.json --samples /abs/s.csv \
    -oshort.csv --out= -D f32 -w gemm
gpubench_user_paths
want=(--quick -o "$tmp/mine.csv" "--json=$tmp/sub/r.json" --samples /abs/s.csv
      "-o$tmp/short.csv" --out= -D f32 -w gemm)
fails=0
if [ "${GPUBENCH_REST_ARGS[*]}" != "${want[*]}" ]; then
    echo "FAIL: got:  ${GPUBENCH_REST_ARGS[*]}"
    echo "      want: ${want[*]}"
    fails=1
fi
[ "${GPUBENCH_CMAKE_ARGS[*]}" = -DGPUBENCH_CUDA=OFF ] || { echo "FAIL: cmake args ${GPUBENCH_CMAKE_ARGS[*]}"; fails=1; }
[ $fails = 0 ] && echo "ok: ${GPUBENCH_REST_ARGS[*]}"
exit $fails
