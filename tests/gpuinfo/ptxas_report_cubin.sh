#!/usr/bin/env bash
# ptxas_report_cubin.sh — scripts/ptxas-report reads an architecture the build's binary holds
# from its machine code (cuobjdump -res-usage) and gives the rows compiling it gives, and compiles
# an architecture where a kernel of the binary has a stack frame (it may hold spills, which only
# ptxas counts).
#
# usage: ptxas_report_cubin.sh SOURCE_DIR BUILD_DIR CUOBJDUMP ARCH   (ARCH: one the build holds)
set -u
src=${1:?usage: ptxas_report_cubin.sh SOURCE_DIR BUILD_DIR CUOBJDUMP ARCH}
build=${2:?}
cuobjdump=${3:?}
arch=${4:?}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
[ -x "$cuobjdump" ] || { echo "no cuobjdump ($cuobjdump): skipped"; exit 77; }
report() { "$src/scripts/ptxas-report" --jobs 2 --build "$build:$arch" "$@"; }

report >"$work/read.txt" || { cat "$work/read.txt"; echo "FAIL: the report exited non-zero"; exit 1; }
# A cuobjdump whose first kernel on this architecture has an 8-byte stack frame.
cat >"$work/cuobjdump" <<EOS
#!/bin/sh
"$cuobjdump" "\$@" | awk '/^arch = /{a=\$3} a=="sm_$arch" && !done && sub(/STACK:0 /, "STACK:8 "){done=1} 1'
EOS
chmod +x "$work/cuobjdump"
report --cuobjdump "$work/cuobjdump" >"$work/compiled.txt" ||
    { cat "$work/compiled.txt"; echo "FAIL: the compiling report exited non-zero"; exit 1; }
/usr/bin/python3 - "$work/read.txt" "$work/compiled.txt" "$arch" <<'PY'
import sys
def rows(path):
    out = {}
    for line in open(path):
        p = line.split()
        if len(p) == 9 and p[2].isdigit():
            out[p[0]] = (int(p[2]), int(p[3]), int(p[6]), p[8])
    return out
read, compiled, arch = rows(sys.argv[1]), rows(sys.argv[2]), sys.argv[3]
fails = []
if not read:
    fails.append("the report has no rows")
if sum(r[3] == "cubin" for r in read.values()) < len(read) - 1:  # the PTX-only kernel is compiled
    fails.append(f"sm_{arch} was not read from the binary: {sorted(set(r[3] for r in read.values()))}")
if any(r[3] != "ptxas" for r in compiled.values()):
    fails.append("a kernel with a stack frame in the binary did not make its architecture compiled")
if set(read) != set(compiled):
    fails.append(f"kernels differ: read only {sorted(set(read) - set(compiled))}, "
                 f"compiled only {sorted(set(compiled) - set(read))}")
# from sm_90 a cubin's shared memory counts the 1 KiB the system reserves for a block that uses any
reserved = (0, 1024) if int(arch.rstrip("a")) >= 90 else (0,)
for k in sorted(set(read) & set(compiled)):
    r, c = read[k], compiled[k]
    if r[0] != c[0] or r[1] - c[1] not in (reserved if r[3] == "cubin" else (0,)) or r[2] or c[2]:
        fails.append(f"{k}: read regs {r[0]} smem {r[1]} stack {r[2]}, "
                     f"compiled regs {c[0]} smem {c[1]} stack {c[2]}")
for f in fails:
    print("FAIL:", f)
if fails:
    sys.exit(1)
print(f"ptxas-report on sm_{arch}: {len(read)} kernels read from the binary as compiled")
PY
