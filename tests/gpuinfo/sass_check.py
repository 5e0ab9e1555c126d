#!/usr/bin/env python3
"""sass_check.py — do the tensor-core kernels' machine code hold the instructions they claim?

usage: sass_check.py CUOBJDUMP GPUBENCH SOURCE_ROOT

Each kernel file that claims an instruction says so in its header, one line per kernel:

    SASS check: <kernel> <OPCODE> from <ARCH>        (e.g. gb_dgemm_dmma_64x64 DMMA from 800)
    SASS check: <kernel> <OPCODE> x<N> from <ARCH>   (at least N of them, e.g. one main-loop
                                                     body's HMMA.16816: kernels/gemm/mma.cuh)
    SASS check: <kernel> no <OPCODE> from <ARCH>     (none in any code, e.g. no LDL: no local
                                                     memory; ARCH names where the body is real)
    SASS check: <kernel> <OPCODE> from <ARCH> below <END>   (none from END on either)
    SASS check: <kernel> no <OPCODE> in loop from <ARCH>    (none in the kernel's main loop: the
                                                     smallest backward branch's body among those
                                                     with the most MMAs and FMAs, e.g. no
                                                     MEMBAR.ALL.GPU: kernels/gemm/wgmma_persist.cuh)

(kernels/gemm/wmma.cuh: HMMA from sm_70 for f16, sm_80 for bf16 and tf32; dmma.cuh: DMMA from
sm_80). ARCH may end in "a" (`HGMMA from 900a`, kernels/gemm/wgmma.cuh): the instruction exists in
arch-specific code alone, so the kernel must hold it in the build's sm_90a code and in no other
code (plain sm_90, sm_100, sm_120: there the kernel is a trap); a build with no sm_90a code (a
plain 90, or CUDA 11.8, which has no such kernel at all) skips the claim with a note. sm_90a code counts as sm_90 for
the plain claims (WMMA's HMMA must be in it too). For every such line, the kernel's SASS (one `cuobjdump --dump-sass` of the binary, the
kernel found by its mangled name from `nm`) is read per architecture the build embeds: from ARCH on it
must hold at least one instruction whose opcode starts with OPCODE (its mnemonic, or with leading
modifiers, `HGMMA.64x256x16`, that the opcode's own must equal: kernels/gemm/wgmma_persist.cuh), and below ARCH none (there the kernel is a trap).
A plain claim may end in "below END" (`DMMA.16x8x16 from 900 below 1000`, kernels/gemm/dmma16.cuh:
an instruction only one generation's code has): from END on none either. A refactor that drops
the tensor-core path for some architecture — a guard that no longer matches, a fragment type
that falls back — fails here, without a GPU. Exit 0 (every claim holds), 1 (one does not), 77
(no cuobjdump for this toolkit: skipped, saying so).
"""
import glob
import os
import re
import subprocess
import sys

CLAIM = re.compile(r"SASS check: (\w+) (no )?([A-Z][A-Z0-9]*(?:\.[A-Za-z0-9]+)*)(?: x(\d+))?"
                   r"( in loop)? from (\d+)(a?)\b(?: below (\d+)\b)?")
# the arithmetic that marks a kernel's main loop (as scripts/sass-loop-mix reads it)
LOOP_WORK = ("FFMA", "DFMA", "HFMA2", "HMMA", "DMMA", "IMMA", "HGMMA")


def claims(root):
    """[(kernel, opcode, arch, file, at least, none, below, in loop)] of every kernel header
    under kernels/: at least that many from arch on (1 unless "xN"), or with none set, no such
    opcode anywhere; below: the first architecture past the claim's range, or None; in loop:
    counted in the main loop only (main_loop)."""
    out = []
    for path in sorted(glob.glob(os.path.join(root, "kernels", "**", "*.cuh"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            for m in CLAIM.finditer(f.read()):
                out.append((m.group(1), m.group(3), (int(m.group(6)), m.group(7)),
                            os.path.relpath(path, root), int(m.group(4) or 1), bool(m.group(2)),
                            int(m.group(8)) if m.group(8) else None, bool(m.group(5))))
    return out


def main_loop(insns):
    """The opcodes of a function's main loop: of the backward branches' bodies (a BRA to a lower
    address, its target up to the branch), those holding the most FMAs and MMAs, the smallest (an
    outer loop, or a wait's out-of-line retry jumping back into the code, holds the same work
    and more); [] where there is no loop. insns: [(address, opcode, operands)]."""
    best, best_work = [], 0
    for i, (addr, op, args) in enumerate(insns):
        m = re.search(r"0x([0-9a-f]+)", args)
        if not op.startswith("BRA") or not m or int(m.group(1), 16) >= addr:
            continue
        body = [x[1] for x in insns[: i + 1] if x[0] >= int(m.group(1), 16)]
        work = sum(1 for o in body if o.split(".")[0] in LOOP_WORK)
        if work > best_work or (work == best_work and work and len(body) < len(best)):
            best, best_work = body, work
    return best


def symbols(binary):
    """The names of the binary's symbols (`nm`, read once)."""
    p = subprocess.run(["nm", binary], capture_output=True, text=True, check=True)
    return [line.split()[-1] for line in p.stdout.splitlines() if line.strip()]


def mangled(names, kernel):
    """The kernel's mangled name as the binary's host stub has it (_Z<len><name>…)."""
    want = re.compile(r"_Z%d%s\S*$" % (len(kernel), kernel))
    for name in names:
        if want.fullmatch(name) and not name.endswith(".cold"):
            return name
    return None


def cuobjdump_release(cuobjdump):
    """(11, 8) from `cuobjdump --version`, or None."""
    p = subprocess.run([cuobjdump, "--version"], capture_output=True, text=True)
    m = re.search(r"release (\d+)\.(\d+)", p.stdout)
    return (int(m.group(1)), int(m.group(2))) if m else None


def opcodes_by_function(cuobjdump, binary, functions):
    """{mangled name: {(arch, suffix) (e.g. (800, ""), (900, "a")): [(address, opcode,
    operands)]}} of the
    functions' SASS in each architecture's code, from one cuobjdump call. CUDA 13's dumps the
    whole binary (about 30 s of CPU for every kernel of every architecture; with the list of
    functions, `-fun A,B,…`, it took 58). CUDA 11.8's disassembles about four times slower (138 s
    for its binary's every kernel), and with the list takes a third of that (41 s)."""
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(os.path.abspath(cuobjdump)) + os.pathsep + env.get("PATH", "")
    only = []
    if functions and (cuobjdump_release(cuobjdump) or (99,)) < (12,):
        only = ["-fun", ",".join(sorted(functions))]
    p = subprocess.run([cuobjdump, "--dump-sass"] + only + [binary], capture_output=True,
                       text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"sass_check: {cuobjdump} --dump-sass failed ({p.returncode}): "
                 f"{p.stderr.strip()[-400:]}")
    out, arch, ops = {}, None, None
    for line in p.stdout.splitlines():
        m = re.search(r"arch = sm_(\d+)(a?)", line)
        if m:
            arch, ops = (int(m.group(1)) * 10, m.group(2)), None
            continue
        m = re.search(r"Function : (\S+)", line)
        if m:
            ops = out.setdefault(m.group(1), {}).setdefault(arch, [])
            continue
        m = re.match(r"\s*/\*([0-9a-f]+)\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Za-z0-9_.]*)([^;]*)",
                     line)
        if ops is not None and m:
            ops.append((int(m.group(1), 16), m.group(2), m.group(3)))
    return out


def opcode_is(opcode, claim):
    """Does a SASS opcode (HGMMA.64x256x16.F32.BF16) match a claim: its mnemonic (HGMMA), or a
    claim with modifiers (HGMMA.64x256x16) that the opcode's leading modifiers equal?"""
    return opcode == claim or opcode.startswith(claim + ".")


def embedded_archs(cuobjdump, binary):
    """{(90, "a"), (80, ""), …}: the architectures of the binary's machine code."""
    p = subprocess.run([cuobjdump, "--list-elf", binary], capture_output=True, text=True)
    return {(int(m.group(1)) * 10, m.group(2))
            for m in re.finditer(r"\.sm_(\d+)(a?)\.cubin", p.stdout)}


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    cuobjdump, binary, root = sys.argv[1:]
    if not cuobjdump or not os.path.exists(cuobjdump):
        print(f"sass_check: no cuobjdump for this build's toolkit ({cuobjdump or 'not found'}): "
              "skipped; configure with -DGPUBENCH_CUOBJDUMP=/path/to/cuobjdump (with nvdisasm "
              "beside it) to run it")
        return 77
    todo = claims(root)
    if not todo:
        print("FAIL: no 'SASS check:' line in kernels/**/*.cuh")
        return 1
    failed = 0
    print(f"{'kernel':<24} {'arch':>6} {'want':>10} {'found':>6}  verdict")
    embedded = embedded_archs(cuobjdump, binary)
    names = symbols(binary)
    sass = opcodes_by_function(cuobjdump, binary,
                               {n for n in (mangled(names, t[0]) for t in todo) if n})
    for kernel, op, since, src, least, none, below, in_loop in todo:
        name = mangled(names, kernel)
        if name is None and since[1] and since not in embedded:
            # an arch-specific kernel exists only where its toolkit does (wgmma: CUDA 12.0+); a
            # build with no code for that architecture (CUDA 11.8's) has nothing to check
            print(f"note: {kernel}: not in this build, which has no sm_{since[0] // 10}{since[1]} "
                  f"code: its {op} claim ({src}) is not checked here")
            continue
        if name is None:
            print(f"FAIL: {kernel} ({src}) is not in {binary}")
            failed += 1
            continue
        per_arch = sass.get(name, {})
        if not per_arch:
            print(f"FAIL: {kernel}: no SASS of it in {binary}")
            failed += 1
            continue
        if since[1] and since not in per_arch:
            # a build for plain 90 (-DCMAKE_CUDA_ARCHITECTURES=90) is a valid choice; the
            # default list embeds 90a-real (cmake/cuda_setup.cmake)
            print(f"note: {kernel}: this build has no sm_{since[0] // 10}{since[1]} code, so its "
                  f"{op} claim ({src}) is not checked here")
        for arch in sorted(per_arch):
            ops = main_loop(per_arch[arch]) if in_loop else [x[1] for x in per_arch[arch]]
            n = sum(1 for o in ops if opcode_is(o, op))
            real = arch == since if since[1] else arch[0] >= since[0]
            if in_loop and real and not ops:  # a claim on a loop that is not found proves nothing
                print(f"FAIL: {kernel} sm_{arch[0] // 10}{arch[1]}: no main loop found for its "
                      f"{op} claim ({src})")
                failed += 1
                continue
            want_some = not none and (arch == since if since[1] else arch[0] >= since[0] and
                                      (below is None or arch[0] < below))
            ok = n >= least if want_some else n == 0
            failed += not ok
            name_arch = f"sm_{arch[0] // 10}{arch[1]}"
            want = ((op if least == 1 else f"{least}x {op}") if want_some else "no " + op) + \
                (" in loop" if in_loop else "")
            print(f"{kernel:<24} {name_arch:<6} {want:>10} "
                  f"{n:>6}  {'ok' if ok else 'FAIL'}"
                  f"{'' if ok else f' ({src} claims {want} from sm_{since[0] // 10}{since[1]}'}"
                  f"{'' if ok or below is None else f' below sm_{below // 10}'}"
                  f"{'' if ok else ')'}")
    print(f"{len(todo)} claims, {failed} failures")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
