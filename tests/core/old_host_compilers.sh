#!/usr/bin/env bash
# old_host_compilers.sh — host C code builds with the compilers old toolkits pair with: CUDA 8
# (Fermi's last) accepts GCC up to 5 and CentOS 7 ships GCC 4.8.5. No such compiler runs here,
# so this checks the two ways the code could slip: (1) nothing outside kernels/common/
# cpu_features.h uses what GCC 4.8 lacks (<stdatomic.h> and <threads.h>: GCC 4.9 / glibc 2.28;
# __builtin_cpu_supports("avx512…"): GCC 5; target_clones: GCC 6); (2) that header's guards pick
# the fallbacks under GCC 4.8's version macros and the real features under today's compiler.
#
# usage: old_host_compilers.sh SOURCE_DIR C_COMPILER
set -u
src=${1:?usage: old_host_compilers.sh SOURCE_DIR C_COMPILER}
cc=${2:?usage: old_host_compilers.sh SOURCE_DIR C_COMPILER}
cd "$src" || exit 1
fails=0
bad() { echo "FAIL $*"; fails=$((fails + 1)); }

host_sources=$(git ls-files 'harness/*.c' 'harness/*.h' 'bench/*.c' 'bench/*.h' 'kernels/*.c' \
    'kernels/*.h' 2>/dev/null || find harness bench kernels -name '*.[ch]')
for pattern in '#include <stdatomic.h>' '#include <threads.h>' '__builtin_cpu_supports("avx512' \
    'target_clones'; do
    hits=$(grep -nF "$pattern" $host_sources | grep -v '^kernels/common/cpu_features.h:')
    [ -z "$hits" ] || bad "GCC 4.8 cannot build: $pattern in
$hits"
done

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cat >"$work/probe.c" <<'C'
#include "kernels/common/cpu_features.h"
#if defined(WANT_OLD)
_Static_assert(GB_CPU_HAS_AVX512F() == 0, "GCC 4.8 must not use the avx512f builtin");
GB_TARGET_CLONES static int f(void) { return 0; }
int g(void) { return f(); }
#else
int g(void) { return GB_CPU_HAS_AVX512F(); }
#endif
C
# GCC 4.8's macros, with no system header in the way (glibc's refuse a faked compiler).
"$cc" -std=c11 -I"$src" -Wno-builtin-macro-redefined -U__GNUC__ -D__GNUC__=4 -U__GNUC_MINOR__ \
    -D__GNUC_MINOR__=8 -DWANT_OLD -c "$work/probe.c" -o "$work/old.o" 2>"$work/old.log" ||
    { cat "$work/old.log"; bad "cpu_features.h under GCC 4.8's macros"; }
"$cc" -std=c11 -I"$src" -c "$work/probe.c" -o "$work/new.o" 2>"$work/new.log" ||
    { cat "$work/new.log"; bad "cpu_features.h under $cc"; }
if nm "$work/new.o" | grep -q __cpu_model; then
    echo "ok   today's compiler tests avx512f at run time"
elif [ "$(uname -m)" = x86_64 ]; then
    bad "today's compiler does not use __builtin_cpu_supports(\"avx512f\")"
fi
[ $fails = 0 ] && echo "ok   no construct GCC 4.8 lacks outside cpu_features.h"
exit $((fails > 0))
