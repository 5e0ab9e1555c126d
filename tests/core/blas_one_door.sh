#!/bin/sh
# blas_one_door.sh — every use of OpenBLAS goes through harness/core/blas.h, so that a build
# against a prefixed OpenBLAS (-DGPUBENCH_OPENBLAS=pypi) renames all of them: no other file
# includes <cblas.h>, and every cblas_* or openblas_get_/set_ name the tree calls is one that
# blas.h maps (a name missing there would break only the prefixed build, which CI may not make).
# usage: blas_one_door.sh SOURCE_DIR
set -u
src=${1:?usage: blas_one_door.sh SOURCE_DIR}
cd "$src" || exit 1
fail=0
files=$(find harness kernels bench tests scripts -name '*.[ch]' -o -name '*.cu' -o -name '*.cuh' |
    grep -v '^tests/core/fake_cblas/' | sort)
direct=$(grep -l '^[ \t]*#[ \t]*include[ \t]*<cblas\.h>' $files | grep -vx 'harness/core/blas.h')
if [ -n "$direct" ]; then
    echo "FAIL: include \"harness/core/blas.h\" instead of <cblas.h> in:"
    echo "$direct"
    fail=1
fi
used=$(grep -ohE '\b(cblas_[a-z0-9_]+|openblas_(get|set)_[a-z0-9_]+|openblas_setaffinity)\b' \
    $(echo "$files" | grep -v '^harness/core/blas.h$\|^tests/core/test_blas_map.c$') | sort -u)
for name in $used; do
    grep -q "^#define $name GB_BLAS_NAME($name)\$\|int $name(" harness/core/blas.h ||
        { echo "FAIL: $name is used but harness/core/blas.h does not map it"; fail=1; }
done
[ $fail = 0 ] && echo "ok: $(echo "$used" | wc -w) OpenBLAS names, all through harness/core/blas.h"
exit $fail
