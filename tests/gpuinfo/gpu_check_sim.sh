#!/usr/bin/env bash
# gpu_check_sim.sh — the real scripts/gpu-check, from preflight to summary.md, on the simulated
# device (tests/sim), so that a first run on a real card can only fail on what the card does.
# Stand-ins on PATH answer what the script asks of the machine: nvidia-smi (-L, -q,
# --query-gpu), compute-sanitizer (runs the program unchecked) and a PyTorch interpreter (answers
# the import check; its "step" takes 1 ms). The suite's own build is reused (--no-build, the
# build's gpubench-sim as --binary); --quick keeps the shapes small and only memcpy is swept (the
# other ladders reach sizes the CPU emulation needs minutes for).
#
# usage: gpu_check_sim.sh SOURCE_DIR BUILD_DIR PROFILE [--shared] [--no-sanitizer]
#            [--sanitizers memcheck] [--no-sweep] [--no-peer]
#        e.g. PROFILE h100, k40m:built-for-card; the options go to gpu-check (a shorter run),
#        but --shared: another process holds the card (GPUBENCH_SIM_FOREIGN_PROCESS=4242)
# Checks: exit 0; every step of summary.md passed (build skipped: --no-build, and the steps the
# options skip); every file docs/gpu-check.md lists exists, CSVs parse with a status column and
# only ok/unsupported rows (the sanitizer's CUDA rows timed without the queue hold:
# GPUBENCH_NO_HOLD), doctor.json parses; ratios.md has all four sections; summary.md says whether
# the card was shared ("Shared GPU: no", or with --shared "Shared GPU: yes" naming process 4242);
# ratios.md says the times are emulation and judges none against a card's target.
set -u
src=$(cd "${1:?usage: gpu_check_sim.sh SOURCE_DIR BUILD_DIR PROFILE}" && pwd)
build=$(cd "${2:?usage: gpu_check_sim.sh SOURCE_DIR BUILD_DIR PROFILE}" && pwd)
profile=${3:?usage: gpu_check_sim.sh SOURCE_DIR BUILD_DIR PROFILE}
shift 3
shared=0
args=()
for a in "$@"; do
    if [ "$a" = --shared ]; then shared=1; else args+=("$a"); fi
done
set -- ${args[@]+"${args[@]}"}
steps="ctest_gpu doctor dmma_edges default_suite sweep-memcpy ratios"
files="env.txt nvidia-smi.txt doctor.json run.csv run.samples.csv sweep-memcpy.csv
    sweep-memcpy.samples.csv ratios.md"
skipped="build"
case " $* " in
*" --no-sanitizer "*) skipped="$skipped sanitizer" ;;
*" --sanitizers memcheck "*)
    steps="$steps sanitizer-memcheck sanitizer-dmma" files="$files sanitizer-memcheck.csv" ;;
*) steps="$steps sanitizer-memcheck sanitizer-racecheck sanitizer-synccheck sanitizer-initcheck
           sanitizer-dmma"
   files="$files sanitizer-memcheck.csv" ;;
esac
case " $* " in
*" --no-sweep "*)
    skipped="$skipped sweep" steps=${steps/ sweep-memcpy/}
    files=${files/sweep-memcpy.csv/} files=${files/sweep-memcpy.samples.csv/} ;;
esac
case " $* " in
*" --no-peer "*) skipped="$skipped peer" ;;
*) steps="$steps peer" files="$files peers.csv peers.md" ;;
esac
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
bin=$work/bin
mkdir -p "$bin"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

cat >"$bin/nvidia-smi" <<'EOF'
#!/bin/sh
# stand-in nvidia-smi: one simulated GPU on a PCIe 4.0 x16 link
case "$*" in
-L) echo "GPU 0: simulated card (UUID: GPU-00000000-0000-0000-0000-000000000000)" ;;
-q) printf '\nAttached GPUs : 1\nGPU 00000000:81:00.0\n    Product Name : simulated card\n'
    printf '        PCIe Generation\n            Max                       : 4\n'
    printf '            Current                   : 4\n        Link Width\n'
    printf '            Max                       : 16x\n            Current                   : 16x\n' ;;
*--query-gpu=name*) echo "simulated card" ;;
*) echo "stand-in nvidia-smi: not answered: $*" >&2; exit 1 ;;
esac
EOF
cp "$src/tests/gpuinfo/stand_in_sanitizer.sh" "$bin/compute-sanitizer"
cat >"$bin/torch-python" <<EOF
#!/bin/sh
# stand-in PyTorch interpreter: imports "work", a PyTorch step takes 1 ms
case "\$1" in
-c) exit 0 ;;
*/torch_ref.py) echo "median_ms=1 torch=stand-in threads=1 device=cuda" ;;
*) exec /usr/bin/python3 "\$@" ;;
esac
EOF
chmod +x "$bin"/*

out=$work/out
t0=$SECONDS
foreign=()
[ $shared = 1 ] && foreign=(GPUBENCH_SIM_FOREIGN_PROCESS=4242)
# emulated stages on a loaded 2-core machine take far longer than a card's: a deadline for a
# hang, not for the emulation (a card keeps gpu-check's own)
env ${foreign[@]+"${foreign[@]}"} PATH="$bin:$PATH" GPUBENCH_ROW_TIMEOUT=900 GPUBENCH_SIM=$profile "$src/scripts/gpu-check" --build "$build" --no-build \
    --binary "$build/gpubench-sim" --quick --sweeps memcpy --python "$bin/torch-python" \
    --budget 900 --out "$out" "$@" >"$work/log" 2>&1
rc=$?
echo "gpu-check on the simulated $profile: exit $rc in $((SECONDS - t0)) s"
[ $rc = 0 ] || { fail "exit $rc"; cat "$work/log"; }

[ -f "$out/summary.md" ] || { fail "no summary.md"; exit 1; }
for stepname in $steps; do
    grep -q "^| $stepname | pass |" "$out/summary.md" || fail "step $stepname did not pass"
done
for stepname in $skipped; do
    grep -q "^| $stepname | skipped |" "$out/summary.md" || fail "$stepname not shown as skipped"
done
for f in $files; do
    [ -s "$out/$f" ] || fail "$f missing or empty"
done
/usr/bin/python3 - "$out" <<'EOF' || fail "a result file does not parse (above)"
import csv, glob, json, os, sys
out = sys.argv[1]
json.load(open(os.path.join(out, "doctor.json")))
for path in sorted(glob.glob(os.path.join(out, "*.csv"))):
    rows = list(csv.DictReader(open(path, newline="")))
    if not rows:
        sys.exit(f"{path}: no rows")
    if path.endswith(".samples.csv") or path.endswith("peers.csv"):
        continue
    bad = [(r["workload"], r["impl"], r["status"]) for r in rows
           if r["status"] not in ("ok", "unsupported")]
    if bad:
        sys.exit(f"{path}: rows neither ok nor unsupported: {bad[:5]}")
san = os.path.join(out, "sanitizer-memcheck.csv")
if os.path.exists(san):  # under compute-sanitizer nothing may wait behind the queue hold
    cuda = [r for r in csv.DictReader(open(san, newline="")) if r["device"].startswith("cuda")
            and r["status"] == "ok"]
    if not cuda or any("GPUBENCH_NO_HOLD" not in r["note"] for r in cuda):
        sys.exit("sanitizer-memcheck.csv: a CUDA row timed behind the hold (or none ran)")
if os.path.exists(os.path.join(out, "peers.csv")):
    peers = list(csv.DictReader(open(os.path.join(out, "peers.csv"), newline="")))
    if any(not r["dtype"] for r in peers):
        sys.exit("peers.csv: a row without its precision tier")
EOF
# whether the card was shared: every timed GPU row can tell on the simulated card (its NVML lists
# this process once it has a context)
if [ $shared = 1 ]; then
    grep -q '^\*\*Shared GPU: yes\*\* — .* "shared GPU: 1 other process (pid 4242) held a context while timed' \
        "$out/summary.md" || fail "summary.md does not say the card was shared: $(grep -i 'shared gpu' "$out/summary.md")"
else
    grep -q '^Shared GPU: no — none of the [0-9]* timed GPU rows that could tell saw' "$out/summary.md" &&
        ! grep -q 'could not tell' "$out/summary.md" ||
        fail "summary.md does not say the card was not shared: $(grep -i 'shared gpu' "$out/summary.md")"
fi
for section in "## Ratios between implementations" "## PyTorch peers" \
    "## Kernel-only against end to end" "## Crossover"; do
    grep -q "^$section" "$out/ratios.md" || fail "ratios.md lacks '$section'"
done
# the simulated card's times are emulation: ratios.md says so once, and judges no ratio
grep -q "^\*\*Simulated device: every time below is CPU emulation" "$out/ratios.md" ||
    fail "ratios.md does not say that the simulated card's times are emulation"
! grep -q "MISSES\|meets" "$out/ratios.md" || fail "ratios.md judges an emulated ratio: $(grep -m1 "MISSES\|meets" "$out/ratios.md")"
[ $fails = 0 ] && echo "ok   every step, file and section" || exit 1
