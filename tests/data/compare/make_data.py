#!/usr/bin/env python3
"""make_data.py — writes the hand-made gpubench-1 CSVs that tests/compare/test_compare*.c read.

Times are powers of two so every ratio the tests expect is exact. (real/ holds files written by
gpubench itself on a CPU-only machine: seeds for the fuzz target, input of nothing exact.) Run it from anywhere
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

GEMM = {256: "m=256;n=256;k=256", 512: "m=512;n=512;k=512"}
VEC = {1024: "n=1024", 1048576: "n=1048576", 16777216: "n=16777216"}
CONV = "n=1;c=3;h=32;w=32;k=8;r=3;s=3;stride_h=1;stride_w=1;pad_h=1;pad_w=1"

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


def machine_rows(key):
    m = MACHINES[key]
    s = 1 if key == "a" else 2  # machine b is twice as slow everywhere except where noted
    g = lambda n: 2.0 * n ** 3
    v = lambda n: float(n)
    rows = [
        row(m, "cpu", "gemm", "openblas", GEMM[256], 8.0 * s, flops=g(256)),
        row(m, "cpu", "gemm", "openblas", GEMM[512], 64.0 * s, flops=g(512)),
        row(m, "cuda:0", "gemm", "cublas", GEMM[256], 0.5 * 8 ** (s - 1), 1.0 * 8 ** (s - 1), flops=g(256)),
        row(m, "cuda:0", "gemm", "cublas", GEMM[512], 1.0 * 16 ** (s - 1), 4.0 * 8 ** (s - 1), flops=g(512)),
        row(m, "cuda:0", "gemm", "cuda", GEMM[256], 1.0 * s, 2.0 * s, flops=g(256)),
        row(m, "cuda:0", "gemm", "cuda", GEMM[512], 2.0 * s, 8.0 * s, flops=g(512)),
        row(m, "cpu", "vecadd", "cpu", VEC[1024], 0.5 * s, flops=v(1024)),
        row(m, "cpu", "vecadd", "openblas", VEC[1024], 0.25 * s, flops=v(1024)),
        row(m, "cpu", "vecadd", "cpu", VEC[1048576], 8.0 * s, flops=v(1048576)),
        row(m, "cpu", "vecadd", "openblas", VEC[1048576], 4.0 * s, flops=v(1048576)),
        row(m, "cpu", "vecadd", "cpu", VEC[16777216], 128.0 * s, flops=v(16777216)),
        row(m, "cpu", "vecadd", "openblas", VEC[16777216], 64.0 * s, flops=v(16777216)),
        row(m, "cuda:0", "vecadd", "cuda", VEC[1024], 0.0625 * s, 1.0 * s, flops=v(1024)),
        row(m, "cuda:0", "vecadd", "cuda", VEC[1048576], 0.125 * s, 8.0 * s, flops=v(1048576)),
        row(m, "cuda:0", "vecadd", "cuda", VEC[16777216], 1.0 * s, 32.0 * s, flops=v(16777216)),
        row(m, "cuda:0", "vecadd", "cublas", VEC[1024], 0.0625 * s, 0.125 * s, flops=v(1024)),
        row(m, "cuda:0", "vecadd", "cublas", VEC[1048576], 0.125 * s, 2.0 * s, flops=v(1048576)),
        row(m, "cuda:0", "vecadd", "cublas", VEC[16777216], 1.0 * s, 16.0 * s, flops=v(16777216)),
        row(m, "cpu", "conv2d", "openblas", CONV, 4.0 * s, flops=2.0 * 8 * 3 * 9 * 32 * 32),
    ]
    if key == "a":
        rows.append(row(m, "cuda:0", "conv2d", "cudnn", CONV, 0.5, 1.0, flops=2.0 * 8 * 3 * 9 * 32 * 32))
    else:
        rows.append(row(m, "cuda:0", "conv2d", "cudnn", CONV, 0, status="unsupported",
                        note="cuDNN 8.2.4 needs compute capability >= 5.0, this is 3.5"))
    return rows


def regression_pair():
    a = MACHINES["a"]
    # after a driver and cuBLAS upgrade
    b = dict(a, run_id="20250201T000000Z-hosta-1", utc="2025-02-01T00:00:00Z",
             gpu=("A100-TEST", "8.0", "580.65.06", "13.0"), blas="cuBLAS 13.0.0")
    base = [
        row(a, "cuda:0", "gemm", "cublas", GEMM[512], 10.0, 12.0, ci=(9.9, 10.1)),
        row(a, "cuda:0", "gemm", "cuda", GEMM[512], 10.0, 12.0, ci=(9.0, 11.0)),
        row(a, "cpu", "gemm", "openblas", GEMM[512], 10.0, ci=(9.9, 10.1)),
        row(a, "cuda:0", "vecadd", "cuda", VEC[1024], 1.0, 2.0),
        row(a, "cuda:0", "vecadd", "cublas", VEC[1024], 1.0, 2.0),
        row(a, "cuda:0", "conv2d", "cudnn", CONV, 0, status="error", note="CUDNN_STATUS_EXECUTION_FAILED"),
    ]
    new = [
        row(b, "cuda:0", "vecadd", "cuda", VEC[1024], 0, status="wrong", note="c[17]=nan want 0.25"),
        row(b, "cpu", "gemm", "openblas", GEMM[512], 9.0, ci=(8.9, 9.1)),
        row(b, "cuda:0", "gemm", "cuda", GEMM[512], 10.5, 12.0, ci=(9.5, 11.5)),
        row(b, "cuda:0", "gemm", "cublas", GEMM[512], 11.0, 13.0, ci=(10.9, 11.1)),
        row(b, "cuda:0", "conv2d", "cudnn", CONV, 0.5, 1.0),
        row(b, "cuda:0", "memcpy", "h2d_pinned", "n=1048576", 0.25),
    ]
    # the same run again, nothing changed: no regression
    same = [dict(r, run_id="20250301T000000Z-hosta-1", utc="2025-03-01T00:00:00Z") for r in base]
    return base, new, same


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
    write_text("sd_a.samples.csv", samples_text(a))
    with open(os.path.join(HERE, "sd_a.csv")) as f:
        bad_files(f.read(), samples_text(a))


if __name__ == "__main__":
    main()
