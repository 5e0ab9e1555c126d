#!/usr/bin/python3
"""json_check.py — every JSON that gpubench writes is strict JSON in the one documented schema.

Usage: json_check.py PATH/TO/gpubench DATA_DIR SCHEMA
       (DATA_DIR: tests/data/compare; SCHEMA: docs/gpubench.schema.json)
What is read (stdout alone: messages go to stderr), with NaN and Infinity refused, and checked
against SCHEMA (python3-jsonschema):
  run      the document of a --quick run of every workload on every device found, inside a
           fake Slurm job: printed with `-f json` and written with `--json FILE` in the same run
           (identical), its rows the rows of the run CSV written beside it: keys the CSV's
           columns in order (Slurm ids included), every value the CSV's (a number that the
           CSV's format turns into exactly the CSV cell, null where the cell is empty), every
           number written with the fewest digits that read back as the same double; then
           `--out FILE.json` (the document instead of the CSV)
  compare  `-f json` in regression mode (two real runs with their samples; the hand-made files,
           simulated rows among them) and in slowdown mode (a real run; the hand-made files
           against a baseline)
  doctor   `--format json` and `-f json` of this machine and of assumed cards and builds
No workload is named: the run takes what `gpubench list` has.
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testhelp import check, summary  # noqa: E402


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


# The run CSV writer's format of each number column but the %.6g ones (harness/io/csv_write.c).
CSV_FORMAT = {"threads": ".0f", "flops": ".0f", "bytes": ".0f", "reps": ".0f", "peak_pct": ".4g",
              "max_rel_err": ".3g"}
# The telemetry columns' formats (harness/io/tel_cols.c): whole MHz, °C and link numbers; the
# power, energy and efficiency figures to 4 significant digits.
CSV_FORMAT.update({c: ".0f" for c in (
    "sm_clock_start_mhz", "sm_clock_end_mhz", "sm_clock_max_mhz", "mem_clock_start_mhz",
    "mem_clock_end_mhz", "mem_clock_max_mhz", "temp_c", "pcie_gen", "pcie_width", "pcie_gen_max",
    "pcie_width_max")})
CSV_FORMAT.update({c: ".4g" for c in ("power_avg_w", "power_peak_w", "energy_per_rep_j",
                                       "gflops_per_j", "gb_per_j")})
CSV_FORMAT["cpu_wait_pct"] = ".3g"  # a shared CPU's share, harness/io/csv_write.c
TEXT = ("schema", "run_id", "utc", "host", "device", "device_name", "cc", "driver", "runtime",
        "blas_lib", "dnn_lib", "workload", "impl", "dtype", "shape", "status", "note",
        "slurm_job_id", "slurm_array_task_id", "hardware", "throttle_reasons", "ecc", "persistence",
        "shared_gpu")


def same_cell(column, cell, value):
    """A CSV cell and its JSON value agree: empty is null; text is the same text; a number (every
    other column) is the JSON value written with the CSV's format; `marks` (harness/io/marks.h)
    is the CSV's words joined by '+' as an array."""
    if column == "marks":
        return isinstance(value, list) and value == [w for w in cell.split("+") if w]
    if cell == "":
        return value is None
    if column in TEXT:
        return value == cell
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return format(value, CSV_FORMAT.get(column, ".6g")) == cell


def significant(token):
    """The significant digits of a number's text: '0.0012300' -> '123', '1.5e+20' -> '15'."""
    mantissa = token.lstrip("-").lower().split("e")[0].replace(".", "")
    return mantissa.strip("0") or "0"


def shortest_numbers(text, what):
    """Every number in the JSON text has no more digits than Python's shortest repr of it."""
    tokens = []
    json.loads(text, parse_float=tokens.append, parse_int=tokens.append)
    long = [t for t in tokens if len(significant(t)) > len(significant(repr(float(t))))]
    check(tokens and not long, f"{what}: numbers not in their shortest form: {long[:5]}")


def load_schema(path):
    try:
        import jsonschema
    except ImportError:
        check(False, "python3-jsonschema is missing (apt-get install python3-jsonschema)")
        return None
    with open(path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def valid(validator, doc, what):
    """doc follows the documented schema."""
    if validator is None:
        return
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    check(not errors, f"{what}: not in docs/gpubench.schema.json: " +
          "; ".join(f"{list(e.absolute_path)}: {e.message}"[:300] for e in errors[:3]))


def check_rows(doc, table, what):
    """The document's rows are the CSV's rows, column by column."""
    header, body = table[0], table[1:]
    rows = doc.get("rows") if isinstance(doc, dict) else None
    check(isinstance(rows, list) and len(rows) == len(body) and body,
          f"{what}: {len(rows) if isinstance(rows, list) else rows!r} JSON rows, {len(body)} "
          "CSV rows")
    for obj, row in zip(rows if isinstance(rows, list) else [], body):
        check(list(obj) == header, f"{what}: keys {list(obj)} are not the CSV's {header}")
        bad = [(c, cell, obj.get(c)) for c, cell in zip(header, row)
               if not same_cell(c, cell, obj.get(c))]
        check(not bad, f"{what}: {obj.get('workload')}/{obj.get('impl')}: JSON differs from "
                       f"the CSV: {bad[:3]}")
        check(obj.get("slurm_job_id") == "4242" and obj.get("slurm_array_task_id") == "7",
              f"{what}: Slurm ids {obj.get('slurm_job_id')!r}, {obj.get('slurm_array_task_id')!r}")


def check_run(gpubench, tmp, validator):
    """`gpubench -f json --json FILE` against the CSV of the same run; then --out FILE.json."""
    out, js = os.path.join(tmp, "run.csv"), os.path.join(tmp, "run.json")
    env = dict(os.environ, SLURM_JOB_ID="4242", SLURM_ARRAY_TASK_ID="7")
    args = [gpubench, "--quick", "--min-time", "0", "--reps", "1", "--warmup", "0", "-f", "json",
            "--out", out, "--json", js, "--samples", os.path.join(tmp, "run.samples.csv")]
    proc = subprocess.run(args, capture_output=True, text=True, cwd=tmp, env=env, timeout=240)
    check(proc.returncode in (0, 1), f"run: exit {proc.returncode}: {proc.stderr}")
    try:
        doc = json.loads(proc.stdout, parse_constant=strict)
    except ValueError as e:
        check(False, f"run: stdout is not JSON ({e}):\n{proc.stdout[:2000]}")
        return out
    valid(validator, doc, "run -f json")
    shortest_numbers(proc.stdout, "run -f json")
    with open(js) as f:
        check(f.read() == proc.stdout, "run: the --json file is not what -f json printed")
    with open(out, newline="") as f:
        check_rows(doc, list(csv.reader(f)), "run")

    alone = os.path.join(tmp, "alone.json")
    proc = subprocess.run([gpubench, "--quick", "-d", "cpu", "--min-time", "0", "--reps", "1",
                           "--warmup", "0", "--out", alone], capture_output=True, text=True,
                          cwd=tmp, timeout=240)
    check(proc.returncode == 0, f"--out FILE.json: exit {proc.returncode}: {proc.stderr}")
    try:
        with open(alone) as f:
            valid(validator, json.load(f, parse_constant=strict), "--out FILE.json")
    except (OSError, ValueError) as e:
        check(False, f"--out FILE.json: {e}")
    return out


def main():
    gpubench, data = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    validator = load_schema(sys.argv[3])
    with tempfile.TemporaryDirectory() as tmp:
        a = check_run(gpubench, tmp, validator)
        b = os.path.join(tmp, "b.csv")
        proc = subprocess.run([gpubench, "--quick", "-d", "cpu", "--min-time", "0", "--reps", "3",
                               "--warmup", "0", "--out", b, "--samples", b + ".samples"],
                              capture_output=True, text=True, timeout=240)
        check(proc.returncode == 0, f"second run: exit {proc.returncode}: {proc.stderr}")

        # simulated rows (sd_sim.csv) against another run of their machine: "simulated": true
        sim, sim_again = os.path.join(data, "sd_sim.csv"), os.path.join(tmp, "sd_sim_again.csv")
        with open(sim) as f, open(sim_again, "w") as g:
            g.write(f.read().replace("-hostc-1,", "-hostc-2,"))
        compares = [
            (["compare", sim, sim_again], "regression", (0,)),
            (["compare", sim], "slowdown", (0,)),
            (["compare", a, b, "--samples", a[:-4] + ".samples.csv", "--samples", b + ".samples"],
             "regression", (0, 1)),
            (["compare", os.path.join(data, "reg_base.csv"), os.path.join(data, "reg_new.csv")],
             "regression", (1,)),
            (["compare", a, b, "--baseline", "cpu"], "slowdown", (0,)),
            (["compare", os.path.join(data, "sd_a.csv"), os.path.join(data, "sd_b.csv"),
              "--baseline", "cpu"], "slowdown", (0,)),
            # every series' slow_cpu, with each cause (issue 45)
            (["compare", os.path.join(data, "sd_slow_cpu.csv")], "slowdown", (0,)),
        ]
        for args, mode, rcs in compares:
            for fmt in (["-f", "json"], ["--format", "json"]):
                v = read_json([gpubench] + args + fmt, want_rc=rcs)
                valid(validator, v, f"{args[1:]}")
                check(isinstance(v, dict) and v.get("mode") == mode,
                      f"{args}: mode {v.get('mode') if isinstance(v, dict) else v!r}, want {mode}")
                key = "rows" if mode == "regression" else "lines"
                rows = v.get(key) if isinstance(v, dict) else None
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
        for fmt in (["--format", "json"], ["-f", "json"]):
            v = read_json([gpubench, "doctor"] + args + fmt, want_rc=(0, 1))
            valid(validator, v, f"doctor {args}")
            ok = isinstance(v, dict) and v.get("command") == "doctor"
            check(ok and isinstance(v.get("gpus"), list) and isinstance(v.get("usable"), int),
                  f"doctor {args}: command, gpus, usable: {v!r}"[:500])
            if assumed is not None:
                check(ok and v.get("assumed") is assumed and
                      len(v["gpus"]) == args.count("--assume"),
                      f"doctor {args}: assumed, one GPU per --assume")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
