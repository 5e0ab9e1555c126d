#!/usr/bin/env python3
"""make_data.py — writes the hand-made gpubench-1 CSVs that tests/compare/test_compare*.c read.

Their rows are data, in rows.csv beside this file (workload, implementation, shape, times of each
row; the times are powers of two so every ratio the tests expect is exact); this script adds the
machines' provenance, the columns gpubench derives, the samples, and the bad files made from them.
It knows no workload. (real/ holds files written by gpubench itself on a CPU-only machine: seeds
for the fuzz target, input of nothing exact.) Run it from anywhere
(`python3 tests/data/compare/make_data.py`) after changing it; the files it writes are committed.
"""
import csv
import io
import os

HERE = os.path.dirname(os.path.abspath(__file__))
COLS = ("schema,run_id,utc,host,device,device_name,cc,driver,runtime,blas_lib,dnn_lib,threads,"
        "workload,impl,dtype,shape,flops,bytes,reps,median_ms,min_ms,mean_ms,stddev_ms,"
        "ci95_lo_ms,ci95_hi_ms,e2e_median_ms,gflops,gbps,peak_pct,max_rel_err,status,note").split(",")
EXTRA = ["slurm_job_id", "slurm_array_task_id"]  # what the writer appends after note
# The telemetry columns the writer appends last (harness/io/tel_cols.h), for the cycle-space files.
TEL = ("sm_clock_start_mhz,sm_clock_end_mhz,sm_clock_max_mhz,mem_clock_start_mhz,"
       "mem_clock_end_mhz,mem_clock_max_mhz,power_avg_w,power_peak_w,energy_per_rep_j,"
       "gflops_per_j,gb_per_j,temp_c,throttle_reasons,pcie_gen,pcie_width,pcie_gen_max,"
       "pcie_width_max,ecc,persistence").split(",")

MACHINES = {
    "a": dict(run_id="20250101T000000Z-hosta-1", utc="2025-01-01T00:00:00Z", host="hosta",
              cpu=("Test CPU A", 2), gpu=("A100-TEST", "8.0", "570.86.15", "12.8"),
              blas="cuBLAS 12.8.3", dnn="cuDNN 9.7.0"),
    "b": dict(run_id="20250102T000000Z-hostb-1", utc="2025-01-02T00:00:00Z", host="hostb",
              cpu=("Test CPU B", 4), gpu=("Tesla K40m", "3.5", "470.256.02", "11.4"),
              blas="cuBLAS 11.6.5", dnn="cuDNN 8.2.4"),
}


def row(m, device, workload, impl, shape, ms, e2e=None, status="ok", note="", flops=0.0,
        nbytes=0.0, ci=None, driver=None, blas=None):
    cpu = device == "cpu"
    name, cc, drv, rt = (m["cpu"][0], "", "", "") if cpu else m["gpu"]
    r = dict(schema="gpubench-1", run_id=m["run_id"], utc=m["utc"], host=m["host"], device=device,
             device_name=name, cc=cc, driver=driver if driver is not None else drv, runtime=rt,
             blas_lib="OpenBLAS 0.3.21 Haswell" if cpu else (blas or m["blas"]),
             dnn_lib="" if cpu else m["dnn"], threads=m["cpu"][1] if cpu else "",
             workload=workload, impl=impl, dtype="float32", shape=shape, flops=flops,
             bytes=nbytes, reps="", median_ms="", min_ms="", mean_ms="", stddev_ms="",
             ci95_lo_ms="", ci95_hi_ms="", e2e_median_ms="", gflops="", gbps="", peak_pct="",
             max_rel_err="", status=status, note=note, slurm_job_id="", slurm_array_task_id="")
    if status == "ok":
        lo, hi = ci if ci else (ms * 0.99, ms * 1.01)
        r.update(reps=20, median_ms=ms, min_ms=ms * 0.98, mean_ms=ms, stddev_ms=ms * 0.01,
                 ci95_lo_ms=lo, ci95_hi_ms=hi, e2e_median_ms="" if e2e is None else e2e,
                 gflops=flops / ms / 1e6 if flops else "", max_rel_err=1e-6)
    return r


def write(name, rows, extra=True, cols=None, order=None):
    cols = cols or COLS + (EXTRA if extra else [])
    if order:
        rows = [rows[i] for i in order]
    with open(os.path.join(HERE, name), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(cols)
        for r in rows:
            w.writerow([r.get(c, "") for c in cols])


def spec_rows():
    """rows.csv: {set: [its rows as dicts]}, in file order."""
    with open(os.path.join(HERE, "rows.csv"), newline="") as f:
        lines = [line for line in f if not line.startswith("#")]
    sets = {}
    for r in csv.DictReader(lines):
        sets.setdefault(r["set"], []).append(r)
    return sets


def rows_of(m, spec):
    """The run rows of machine m for spec rows of rows.csv."""
    num = lambda text: float(text) if text else None
    out = []
    for r in spec:
        lo, hi = num(r["ci95_lo_ms"]), num(r["ci95_hi_ms"])
        out.append(row(m, r["device"], r["workload"], r["impl"], r["shape"],
                       num(r["median_ms"]) or 0, num(r["e2e_median_ms"]), status=r["status"],
                       note=r["note"], flops=num(r["flops"]) or 0.0,
                       ci=None if lo is None else (lo, hi)))
    return out


def machine_rows(key):
    return rows_of(MACHINES[key], spec_rows()[key])


def regression_pair():
    a = MACHINES["a"]
    # after a driver and cuBLAS upgrade
    b = dict(a, run_id="20250201T000000Z-hosta-1", utc="2025-02-01T00:00:00Z",
             gpu=("A100-TEST", "8.0", "580.65.06", "13.0"), blas="cuBLAS 13.0.0")
    spec = spec_rows()
    base, new = rows_of(a, spec["base"]), rows_of(b, spec["new"])
    # the same run again, nothing changed: no regression
    same = [dict(r, run_id="20250301T000000Z-hosta-1", utc="2025-03-01T00:00:00Z") for r in base]
    return base, new, same


def with_telemetry(rows, sm, reasons, temp):
    """rows with the telemetry of a card at SM clock `sm` (MHz) that saw `reasons`; CPU rows get
    only power, as RAPL gives them."""
    out = []
    for r in rows:
        t = dict(r)
        if r["status"] == "ok" and r["device"] != "cpu":
            t.update(sm_clock_start_mhz=sm, sm_clock_end_mhz=sm, sm_clock_max_mhz=1410,
                     mem_clock_start_mhz=1215, mem_clock_end_mhz=1215, mem_clock_max_mhz=1215,
                     power_avg_w=250, power_peak_w=260, temp_c=temp, throttle_reasons=reasons,
                     pcie_gen=4, pcie_width=16, pcie_gen_max=4, pcie_width_max=16, ecc="on",
                     persistence="on")
        elif r["status"] == "ok":
            t.update(power_avg_w=65)
        if r["status"] == "ok" and r["median_ms"]:
            w = t["power_avg_w"]
            t.update(energy_per_rep_j=w * r["median_ms"] / 1e3)
            if r["gflops"]:
                t.update(gflops_per_j=r["gflops"] / w)
            else:
                t.update(gb_per_j=round(1.0 / r["median_ms"] / w, 6))
        out.append(t)
    return out


def trace_samples(rows):
    """A samples file with the telemetry trace: each GPU row's clock falls from 1410 to 1095 MHz
    and its power from 262 to 200 W, where it stays (a card held at its power cap)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["run_id", "device", "workload", "impl", "shape", "rep", "ms", "sm_clock_mhz",
                "power_w"])
    for r in rows:
        if r["status"] != "ok" or not r["median_ms"]:
            continue
        gpu = r["device"] != "cpu"
        for i in range(8):
            w.writerow([r["run_id"], r["device"], r["workload"], r["impl"], r["shape"], i,
                        r["median_ms"], 1410 - 45 * i if gpu else "",
                        max(200, 262 - 16 * i) if gpu else ""])
    return out.getvalue()


# Five runs per side (gpubench --runs 5) of machine a before and after the upgrade, for the
# verdicts from runs: each run's median is the row's time times that run's factor (fixed, so the
# verdicts are exact): a row 30% slower, one 1% slower on quiet runs (SAME), one 3% faster on
# noisy runs (UNSURE), one 30% faster, and one that is wrong in one run of five (BROKEN).
RUN_FACTORS = {
    "quiet": ([1.000, 1.004, 0.997, 1.002, 0.999], [1.001, 0.998, 1.003, 0.999, 1.002]),
    "noisy": ([1.00, 1.21, 0.88, 1.09, 0.93], [0.90, 1.12, 1.25, 0.86, 1.02]),
}
RUNS_ROWS = [  # device, workload, impl, shape, base ms, new ms, noise
    ("cuda:0", "gemm", "cublas", "m=512;n=512;k=512", 10.0, 13.0, "quiet"),
    ("cuda:0", "gemm", "cuda", "m=512;n=512;k=512", 10.0, 10.1, "quiet"),
    ("cpu", "gemm", "openblas", "m=512;n=512;k=512", 10.0, 9.7, "noisy"),
    ("cuda:0", "vecadd", "cublas", "n=1024", 1.0, 0.7, "quiet"),
    ("cuda:0", "vecadd", "cuda", "n=1024", 1.0, 1.0, "quiet"),
]


def runs_pair():
    """reg_runs_base.csv and reg_runs_new.csv: five runs each, with the `run` column."""
    a = MACHINES["a"]
    sides = []
    for side, (drv, blas, day) in enumerate([("570.86.15", "cuBLAS 12.8.3", "01"),
                                             ("580.65.06", "cuBLAS 13.0.0", "02")]):
        rows = []
        for k in range(5):
            m = dict(a, run_id="2025%s0%dT000000Z-hosta-%d" % (day, k + 1, side),
                     utc="2025-%s-0%dT00:00:00Z" % (day, k + 1),
                     gpu=("A100-TEST", "8.0", drv, "13.0" if side else "12.8"), blas=blas)
            for dev, wl, impl, shape, b, n, noise in RUNS_ROWS:
                ms = round((n if side else b) * RUN_FACTORS[noise][side][k], 6)
                broken = side == 1 and impl == "cuda" and wl == "vecadd" and k == 2
                r = row(m, dev, wl, impl, shape, 0 if broken else ms,
                        status="wrong" if broken else "ok",
                        note="c[17]=nan want 0.25" if broken else "")
                r["run"] = k
                rows.append(r)
        sides.append(rows)
    return sides


def write_text(name, text):
    with open(os.path.join(HERE, name), "w", newline="") as f:
        f.write(text)


def samples_text(rows, reps=8):
    """A samples file for the ok rows: rep k of a row takes median_ms * (1 + (k - reps/2)/1000)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["run_id", "device", "workload", "impl", "shape", "rep", "ms"])
    for r in rows:
        if r["status"] != "ok":
            continue
        for k in range(reps):
            w.writerow([r["run_id"], r["device"], r["workload"], r["impl"], r["shape"], k,
                        r["median_ms"] * (1 + (k - reps // 2) / 1000)])
    return out.getvalue()


def bad_files(good_text, samples):
    """One file per kind of bad input (see tests/compare/test_compare.c for the expected messages)."""
    lines = good_text.split("\n")  # lines[0] is the header; the text ends with "\n"
    head = lines[0].split(",")
    body = lines[1:-1]

    def edit(line_no, col, value):  # line_no 2 is the first row
        out = list(lines)
        f = out[line_no - 1].split(",")
        f[head.index(col)] = value
        out[line_no - 1] = ",".join(f)
        return "\n".join(out)

    def header_edit(fn):
        h = list(head)
        fn(h)
        return "\n".join([",".join(h)] + lines[1:])

    d = "bad/"
    write_text(d + "empty.csv", "")
    write_text(d + "not_gpubench.csv", "name,value\nfoo,1\n")
    write_text(d + "samples_as_run.csv", samples)
    write_text(d + "schema2.csv", good_text.replace("gpubench-1,", "gpubench-2,"))
    write_text(d + "mixed_schema.csv", edit(3, "schema", "gpubench-2"))
    write_text(d + "wrong_column.csv", header_edit(lambda h: h.__setitem__(h.index("median_ms"), "median")))
    drop = head.index("note")
    write_text(d + "missing_column.csv", "\n".join(
        ",".join(x for i, x in enumerate(l.split(",")) if i != drop) for l in lines))
    def swap(h):
        i, j = h.index("median_ms"), h.index("min_ms")
        h[i], h[j] = h[j], h[i]
    write_text(d + "swapped_columns.csv", header_edit(swap))
    rag = list(lines)
    rag[2] = ",".join(rag[2].split(",")[:27])
    write_text(d + "ragged.csv", "\n".join(rag))
    ext = list(lines)
    ext[3] = ext[3] + ",surplus"
    write_text(d + "extra_field.csv", "\n".join(ext))
    write_text(d + "nonnumeric.csv", edit(2, "median_ms", "fast"))
    write_text(d + "unknown_status.csv", edit(5, "status", "slow"))
    write_text(d + "duplicate.csv", "\n".join(lines[:-1] + [lines[2], ""]))
    write_text(d + "unclosed_quote.csv", "\n".join(lines[:-1]) + ',"never closed\n')
    write_text(d + "stray_quote.csv", edit(4, "note", 'say "hi"'))
    write_text(d + "negative.csv", edit(3, "min_ms", "-1"))
    write_text(d + "not_finite.csv", edit(3, "gflops", "inf"))
    write_text(d + "header_only.csv", lines[0] + "\n")
    write_text(d + "bad_int.csv", edit(2, "threads", "two"))
    write_text(d + "blank_line.csv", "\n".join(lines[:3] + [""] + lines[3:]))
    write_text(d + "empty_key.csv", edit(6, "workload", ""))
    two = list(lines)
    two[4] = two[4].replace("20250101T000000Z-hosta-1", "20250101T000000Z-hosta-2")
    write_text(d + "two_runs.csv", "\n".join(two))
    sl = samples.split("\n")
    def sedit(line_no, col, value):
        out = list(sl)
        f = out[line_no - 1].split(",")
        f[["run_id", "device", "workload", "impl", "shape", "rep", "ms"].index(col)] = value
        out[line_no - 1] = ",".join(f)
        return "\n".join(out)
    write_text(d + "bad_ms.samples.csv", sedit(3, "ms", "x"))
    write_text(d + "unknown_run.samples.csv", sedit(4, "run_id", "nope"))
    write_text(d + "unknown_row.samples.csv", sedit(4, "shape", "n=3"))
    write_text(d + "dup_rep.samples.csv", sedit(3, "rep", "0"))
    # good but unusual: CRLF line ends, a BOM, a quoted note with a comma, a quote and a newline
    crlf = "\ufeff" + "\r\n".join(lines)
    crlf = crlf.replace(",ok,,,", ',ok,"a note, with ""quotes""\r\nand a second line",,', 1)
    write_text("crlf_quoted.csv", crlf)


def main():
    a, b = machine_rows("a"), machine_rows("b")
    write("sd_a.csv", a)
    write("sd_b.csv", b, order=list(reversed(range(len(b)))))  # other order: joins must not care
    write("sd_a_noextra.csv", a, extra=False)
    base, new, same = regression_pair()
    write("reg_base.csv", base)
    write("reg_new.csv", new)
    write("reg_same.csv", same, order=[5, 4, 3, 2, 1, 0])
    # the same pair with telemetry: the new run's card was hot and held by its power cap
    tel_cols = COLS + EXTRA + TEL
    write("reg_tel_base.csv", with_telemetry(base, 1410, "none", 60), cols=tel_cols)
    write("reg_tel_new.csv", with_telemetry(new, 1095, "sw_power_cap+hw_thermal", 91),
          cols=tel_cols)
    write("reg_tel_same.csv", with_telemetry(same, 1400, "idle", 62), cols=tel_cols)
    write_text("reg_tel_new.samples.csv", trace_samples(new))
    write_text("sd_a.samples.csv", samples_text(a))
    rb, rn = runs_pair()
    cols = COLS + ["run"] + EXTRA
    write("reg_runs_base.csv", rb, cols=cols)
    write("reg_runs_new.csv", rn, cols=cols)
    # the five runs per side with telemetry: the new card hot and held by its power cap
    write("reg_runs_tel_base.csv", with_telemetry(rb, 1410, "none", 60), cols=cols + TEL)
    write("reg_runs_tel_new.csv", with_telemetry(rn, 1095, "sw_power_cap+hw_thermal", 91),
          cols=cols + TEL)
    with open(os.path.join(HERE, "sd_a.csv")) as f:
        bad_files(f.read(), samples_text(a))


if __name__ == "__main__":
    main()
