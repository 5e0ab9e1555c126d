#!/usr/bin/env python3
"""gpu_ratios.py — the figures a GPU run is judged by, from a scripts/gpu-check result folder:

  - each workload's GPU_RATIOS (kernels/<w>/peer.py): one implementation's rate ÷ another's (or
    ÷ the PCIe link's rate from nvidia-smi -q), per CUDA device and shape, with its target;
  - PyTorch peers (peers.csv, gpu_peers.py): gpubench's time ÷ PyTorch's, against the workload's
    TORCH_GPU_TARGET where it has one;
  - kernel-only against end-to-end time of every CUDA row of the default suite;
  - the crossover size from which a GPU beats the CPU, end to end (`gpubench compare` on each
    sweep).
No workload is named here: they come from the runs and their peer.py files.

usage: gpu_ratios.py RESULT_DIR GPUBENCH       writes RESULT_DIR/ratios.md
       gpu_ratios.py --print DIR                prints the ratios of DIR/*.csv (scripts/kernel-lease)
"""
import csv
import glob
import importlib.util
import json
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# GB/s per lane after line coding: PCIe 1.x/2.x 8b/10b, 3.0 on 128b/130b (PCI-SIG specifications).
PCIE_LANE_GBPS = {1: 0.25, 2: 0.5, 3: 0.985, 4: 1.969, 5: 3.938, 6: 7.563}


def load_peers():
    peers = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "kernels", "*", "peer.py"))):
        name = os.path.basename(os.path.dirname(path))
        spec = importlib.util.spec_from_file_location(f"peer_{name}", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        peers[name] = mod
    return peers


def read_rows(paths):
    rows = []
    for p in paths:
        if os.path.isfile(p):
            with open(p, newline="") as f:
                reader = csv.DictReader(f)
                if "status" in (reader.fieldnames or []):  # run CSVs only, not peers.csv
                    rows += [r for r in reader if r["status"] == "ok"]
    return rows


def pcie_gbps(smi_text):
    """{gpu index: (current GB/s, "Gen 4 x16 (max Gen 5 x16)")} from nvidia-smi -q."""
    out = {}
    for i, block in enumerate(re.split(r"\nGPU [0-9A-Fa-f:.]+\n", smi_text)[1:]):
        gen = re.search(r"PCIe Generation\s*\n\s*Max\s*:\s*(\d+)\s*\n\s*Current\s*:\s*(\d+)", block)
        width = re.search(r"Link Width\s*\n\s*Max\s*:\s*(\d+)x\s*\n\s*Current\s*:\s*(\d+)x", block)
        if gen and width:
            g, w = int(gen.group(2)), int(width.group(2))
            out[i] = (PCIE_LANE_GBPS.get(g, 0) * w,
                      f"Gen {g} x{w} (max Gen {gen.group(1)} x{width.group(1)})")
    return out


def rate(rows, device, workload, impl, shape, metric):
    for r in rows:
        if (r["device"], r["workload"], r["impl"], r["shape"]) == (device, workload, impl, shape) \
                and r[metric]:
            return float(r[metric])
    return None


# Said once above figures that hold a simulated device's rows (gpubench-sim): their times are CPU
# emulation, so no ratio of them is judged against a target meant for the card.
EMULATION_NOTE = ("**Simulated device: every time below is CPU emulation (gpubench-sim), not a "
                  "measurement of the card; no ratio is judged against its target.**")


def emulated(rows):
    return any(r.get("device_name", "").startswith("simulated ") for r in rows)


def verdict(value, target, lower_is_better=False, emulation=False):
    if target is None or value is None:
        return ""
    if emulation:
        return f"not judged: emulation ({'≤' if lower_is_better else '≥'} {target} on a card)"
    ok = value <= target if lower_is_better else value >= target
    return f"{'meets' if ok else 'MISSES'} ({'≤' if lower_is_better else '≥'} {target})"


def spec_target(spec, row):
    """A GPU_RATIOS entry's target for one row: a number, or a function of (dtype, shape) that
    returns one (None: reported without a target)."""
    t = spec.get("target")
    return t(row["dtype"], row["shape"]) if callable(t) else t


def fp64_fma_gflops(row):
    """The FP64 FMA (non-tensor) peak of a float64 row's card, from the row's own rate and
    peak_pct: gpubench's FP64 peak on 8.0 and 9.0 is the FP64 tensor cores' (harness/gpuinfo/
    gpu_peak.c), twice the FMA units' rate (A100: 19.5 and 9.7 TFLOP/s; H100 SXM: 67 and 34)."""
    if row["dtype"] != "float64" or not row.get("peak_pct") or not row["gflops"]:
        return None, "FP64 FMA peak unknown"
    peak = float(row["gflops"]) / (float(row["peak_pct"]) / 100.0)
    tensor = row.get("cc") in ("8.0", "9.0")
    return (peak / 2 if tensor else peak), "FP64 FMA peak"


def section_ratios(peers, rows, link, any_shape=False):
    lines = ["## Ratios between implementations", "",
             "Each row's rate against the other implementation's in the same precision tier "
             "(a row of another workload, the copy, in any: bytes are bytes); a time ratio "
             "(lower is better) says so in its target.", "",
             "| ratio | device | dtype | shape | value | target |", "|---|---|---|---|--:|---|"]
    emulation = emulated(rows)
    for w, peer in peers.items():
        for spec in getattr(peer, "GPU_RATIOS", []):
            ours = [r for r in rows if r["workload"] == w and r["impl"] == spec["impl"]
                    and r["device"].startswith("cuda")
                    and (not spec.get("dtypes") or r["dtype"] in spec["dtypes"])
                    # a kernel the implementation chose, named by the row's note
                    and (not spec.get("note") or re.search(spec["note"], r.get("note") or ""))]
            for r in ours:
                if spec.get("shapes") and r["shape"] not in spec["shapes"] and not any_shape:
                    continue
                num = float(r[spec["metric"]]) if r[spec["metric"]] else None
                label = spec["name"]
                if spec["vs"] == "pcie":
                    idx = int(r["device"].split(":")[1])
                    den, what = link.get(idx, (None, "link unknown"))
                    label = f"{spec['name']} [{what}]"
                elif spec["vs"] == "fp64_fma":
                    den, what = fp64_fma_gflops(r)
                    label = f"{spec['name']} [{what}: {den / 1000:.1f} TFLOP/s]" if den else \
                        f"{spec['name']} [{what}]"
                else:
                    vw, vi = spec["vs"]
                    vs_rows = [x for x in rows if (x["device"], x["workload"], x["impl"]) ==
                               (r["device"], vw, vi)]
                    # the same shape and tier when the other row is of the same workload (a
                    # DGEMM is never divided by an SGEMM), else its default shape
                    if vw == w:
                        match = [x for x in vs_rows
                                 if (x["shape"], x["dtype"]) == (r["shape"], r["dtype"])]
                    else:
                        match = vs_rows[:1]
                    den = float(match[0][spec["metric"]]) * spec.get("vs_scale", 1.0) \
                        if match and match[0][spec["metric"]] else None
                    # the other row's method, from its note (e.g. cuDNN's algorithm)
                    named = re.search(spec["vs_label"], match[0]["note"]) \
                        if match and spec.get("vs_label") else None
                    label = f"{spec['name']} [{named.group(1)}]" if named else label
                value = num / den if num and den else None
                lines.append(f"| {label} | {r['device']} | {r['dtype']} | {r['shape']} | "
                             f"{'%.3f' % value if value else 'n/a'} | "
                             f"{verdict(value, spec_target(spec, r), spec.get('lower_is_better'), emulation)} |")
    return lines + [""]


def section_peers(peers, out_dir, emulation=False):
    path = os.path.join(out_dir, "peers.csv")
    if not os.path.isfile(path):
        return ["## PyTorch peers", "", "not measured (no PyTorch with CUDA, or skipped)", ""]
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    lines = ["## PyTorch peers (gpubench time ÷ PyTorch time, PyTorch in FP32 with TF32 off)", "",
             "| workload | impl | dtype | shape | median | range | target |",
             "|---|---|---|---|--:|---|---|"]
    key_of = lambda r: (r["workload"], r["impl"], r.get("dtype", "?"), r["shape"])  # noqa: E731
    for key in sorted({key_of(r) for r in rows}):
        rs = [float(r["ratio"]) for r in rows if key_of(r) == key]
        target = getattr(peers.get(key[0]), "TORCH_GPU_TARGET", None)
        med = statistics.median(rs)
        lines.append(f"| {' | '.join(key)} | {med:.3f} | {min(rs):.3f}–{max(rs):.3f}"
                     f" | {verdict(med, target, True, emulation)} |")
    return lines + [""]


def section_e2e(rows):
    lines = ["## Kernel-only against end to end (default suite)", "",
             "| device | workload | impl | dtype | shape | kernel ms | end-to-end ms | e2e ÷ kernel |",
             "|---|---|---|---|---|--:|--:|--:|"]
    for r in rows:
        if not r["device"].startswith("cuda") or not r["e2e_median_ms"]:
            continue
        k, e = float(r["median_ms"]), float(r["e2e_median_ms"])
        if k > 0:
            lines.append(f"| {r['device']} | {r['workload']} | {r['impl']} | {r['dtype']} | "
                         f"{r['shape']} | "
                         f"{k:.4g} | {e:.4g} | {e / k:.2f} |")
    return lines + [""]


def section_crossover(out_dir, gb):
    lines = ["## Crossover: where a GPU beats the CPU, end to end (`gpubench compare` on the "
             "sweeps)", "", "| workload | device | impl | dtype | crossover |",
             "|---|---|---|---|---|"]
    for path in sorted(glob.glob(os.path.join(out_dir, "sweep-*.csv"))):
        if path.endswith(".samples.csv"):
            continue
        with open(path, newline="") as f:
            devices = {r["device"] for r in csv.DictReader(f)}
        if "cpu" not in devices:  # a GPU-only workload (the copies): no CPU to cross
            name = os.path.basename(path)[len("sweep-"):-len(".csv")]
            lines.append(f"| {name} | | | | no CPU rows: nothing to cross |")
            continue
        p = subprocess.run([gb, "compare", "--baseline", "cpu", path, "--format", "json"],
                           capture_output=True, text=True)
        if p.returncode not in (0, 1):
            lines.append(f"| {os.path.basename(path)} | | | | compare failed: "
                         f"{p.stderr.strip()} |")
            continue
        for x in json.loads(p.stdout).get("crossover", []):
            lines.append(f"| {x['workload']} | {x['label']} | {x['impl']} | "
                         f"{x.get('dtype', '?')} | {x['text']} |")
    return lines + [""]


def run_csvs(out_dir):
    return [p for p in sorted(glob.glob(os.path.join(out_dir, "*.csv")))
            if not p.endswith(".samples.csv")]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[-1])
    if sys.argv[1] == "--print":
        rows = read_rows(run_csvs(sys.argv[2]))
        print("\n".join(([EMULATION_NOTE, ""] if emulated(rows) else []) +
                        section_ratios(load_peers(), rows, {})))
        return
    out_dir, gb = sys.argv[1], sys.argv[2]
    peers = load_peers()
    default = read_rows([os.path.join(out_dir, "run.csv")])
    rows = default + read_rows(p for p in run_csvs(out_dir)
                               if os.path.basename(p).startswith("sweep-"))
    smi = os.path.join(out_dir, "nvidia-smi.txt")
    link = pcie_gbps(open(smi).read()) if os.path.isfile(smi) else {}
    sim = emulated(rows)
    text = (["# Figures of this run", ""] + ([EMULATION_NOTE, ""] if sim else []) +
            section_ratios(peers, rows, link) + section_peers(peers, out_dir, sim) +
            section_e2e(default) + section_crossover(out_dir, gb))
    with open(os.path.join(out_dir, "ratios.md"), "w") as f:
        f.write("\n".join(text) + "\n")


if __name__ == "__main__":
    main()
