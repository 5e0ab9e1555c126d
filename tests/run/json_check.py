#!/usr/bin/python3
"""json_check.py — every JSON that gpubench prints is strict JSON that Python's json module reads.

Usage: json_check.py PATH/TO/gpubench DATA_DIR (tests/data/compare)
What is read, each from stdout alone (messages go to stderr), with NaN and Infinity refused:
  run      `-f json` of a --quick run of every workload on every device found: one object per
           row of the run CSV written beside it, its keys the CSV's columns in order but for
           the Slurm ids (CSV only), every value the CSV's (a number where the CSV has one, null
           where its cell is empty)
  compare  `-f json` in regression mode (two real runs with their samples; the hand-made files)
           and in slowdown mode (a real run; the hand-made files against a baseline)
  doctor   `--format json` of this machine and of assumed cards and builds
No workload is named: the run takes what `gpubench list` has.
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def strict(token):
    raise ValueError(f"{token} is not JSON")


def read_json(args, want_rc=(0,), cwd=None):
    """Run gpubench ARGS; parse its stdout as strict JSON. Returns the value, or None."""
    proc = subprocess.run(args, capture_output=True, text=True, cwd=cwd, timeout=240)
    check(proc.returncode in want_rc, f"{args[1:]}: exit {proc.returncode}: {proc.stderr}")
    try:
        value = json.loads(proc.stdout, parse_constant=strict)
    except ValueError as e:
        check(False, f"{args[1:]}: stdout is not JSON ({e}):\n{proc.stdout[:2000]}")
        return None
    check(True, f"{args[1:]} is JSON")
    return value


def same_cell(cell, value):
    """A CSV cell and its JSON value agree: empty (or inf, which JSON lacks) is null, a number the
    same number to the CSV's 4 to 6 significant digits, text the same text."""
    if cell in ("", "inf"):
        return value is None
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, (int, float)):
        try:
            return abs(float(cell) - value) <= 1e-3 * abs(value) + 1e-12
        except ValueError:
            return False
    return value == cell


def check_run(gpubench, tmp):
    """`gpubench -f json` against the CSV of the same run."""
    out = os.path.join(tmp, "run.csv")
    rows = read_json([gpubench, "--quick", "--min-time", "0", "--reps", "1", "--warmup", "0",
                      "-f", "json", "--out", out, "--samples", os.path.join(tmp, "run.samples.csv")],
                     want_rc=(0, 1), cwd=tmp)
    if rows is None:
        return out
    with open(out, newline="") as f:
        table = list(csv.reader(f))
    header, body = table[0], table[1:]
    check(isinstance(rows, list) and len(rows) == len(body) and len(body) > 0,
          f"run: {len(rows) if isinstance(rows, list) else rows!r} JSON rows, {len(body)} CSV rows")
    columns = [c for c in header if not c.startswith("slurm_")]  # Slurm provenance: CSV only
    for obj, row in zip(rows if isinstance(rows, list) else [], body):
        if not isinstance(obj, dict):
            check(False, f"run: {obj!r} is not an object")
            continue
        check(list(obj) == columns, f"run: keys {list(obj)} are not the CSV's {columns}")
        bad = [c for c, cell in zip(columns, row) if not same_cell(cell, obj.get(c))]
        check(not bad, f"run: {row[header.index('workload')]}/{row[header.index('impl')]}: "
                       f"JSON differs from the CSV in {bad}")
    return out


def main():
    gpubench, data = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        a = check_run(gpubench, tmp)
        b = os.path.join(tmp, "b.csv")
        proc = subprocess.run([gpubench, "--quick", "-d", "cpu", "--min-time", "0", "--reps", "3",
                               "--warmup", "0", "--out", b, "--samples", b + ".samples"],
                              capture_output=True, text=True, timeout=240)
        check(proc.returncode == 0, f"second run: exit {proc.returncode}: {proc.stderr}")

        compares = [
            (["compare", a, b, "--samples", a[:-4] + ".samples.csv", "--samples", b + ".samples"],
             "regression", (0, 1)),
            (["compare", os.path.join(data, "reg_base.csv"), os.path.join(data, "reg_new.csv")],
             "regression", (1,)),
            (["compare", a, b, "--baseline", "cpu"], "slowdown", (0,)),
            (["compare", os.path.join(data, "sd_a.csv"), os.path.join(data, "sd_b.csv"),
              "--baseline", "cpu"], "slowdown", (0,)),
        ]
        for args, mode, rcs in compares:
            for fmt in (["-f", "json"], ["--format", "json"]):
                v = read_json([gpubench] + args + fmt, want_rc=rcs)
                check(isinstance(v, dict) and v.get("mode") == mode,
                      f"{args}: mode {v.get('mode') if isinstance(v, dict) else v!r}, want {mode}")
                rows = v.get("rows" if mode == "regression" else "lines") if isinstance(v, dict) else None
                check(isinstance(rows, list) and rows and all(isinstance(r, dict) for r in rows),
                      f"{args}: no list of row objects")

    build = "cuda=13.0,archs=75-real 80-real 86-real 90,cublas=yes,cudnn=9.19"
    doctors = [
        ([], None),
        (["--assume", 'cc=3.5,name="Tesla K40m",mem=12GiB,driver=470.82'], True),
        (["--assume", "cc=8.0,name=A100,driver=none", "--assume-build", build], True),
        (["--assume", "cc=7.5,name=T4,driver=580.95.05", "--assume", "cc=12.0,name=RTX5090",
          "--assume-build", "cuda=none"], True),
    ]
    for args, assumed in doctors:
        v = read_json([gpubench, "doctor"] + args + ["--format", "json"], want_rc=(0, 1))
        ok = isinstance(v, dict) and v.get("schema") == "gpubench-doctor-1"
        check(ok and isinstance(v.get("gpus"), list) and isinstance(v.get("usable"), int),
              f"doctor {args}: schema, gpus, usable: {v!r}"[:500])
        if assumed is not None:
            check(ok and v.get("assumed") is assumed and len(v["gpus"]) == args.count("--assume"),
                  f"doctor {args}: assumed, one GPU per --assume")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
