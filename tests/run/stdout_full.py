#!/usr/bin/python3
"""stdout_full.py — a failed write to standard output is never a success: every command, in every
--format, with stdout on /dev/full (each write fails with ENOSPC, as on a full disk) prints one
line "gpubench: error writing standard output: …" on stderr and exits non-zero — 1 where the
same command with stdout on /dev/null exits 0, else that command's own code (merge with --out
/dev/stdout: its own line and 1, nothing merged, as a run's failed write). A run that also
writes a file still commits it, every row in it. Skipped (77) where /dev/full does not exist.

usage: stdout_full.py GPUBENCH WORKLOAD COMPARE_DATA_DIR
"""
import csv
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testhelp import check, summary  # noqa: E402

SAID = "gpubench: error writing standard output: No space left on device"


def run(args, stdout, cwd):
    with open(stdout, "w") as out:
        return subprocess.run(args, stdout=out, stderr=subprocess.PIPE, text=True, cwd=cwd,
                              timeout=240)


def main():
    if not os.path.exists("/dev/full"):
        print("no /dev/full: skipped")
        return 77
    g, w, data = os.path.abspath(sys.argv[1]), sys.argv[2], os.path.abspath(sys.argv[3])
    quick = ["-d", "cpu", "-w", w, "--quick", "--min-time", "0", "--reps", "1", "--warmup", "0"]
    cases = [[g, "run"] + quick + ["-f", f, "--no-out"]
             for f in ("table", "csv", "json", "markdown", "gbench", "bmf")]
    cases += [[g, "list"], [g, "--help"], [g, "--version"], [g, "list", "--help"],
              [g, "doctor"], [g, "doctor", "--format", "json"], [g, "doctor", "--help"],
              [g, "merge", "--help"], [g, "compare", "--help"]]
    cases += [[g, "compare", os.path.join(data, "sd_a.csv"), "-f", f]
              for f in ("table", "csv", "json", "markdown")]
    cases += [[g, "compare", os.path.join(data, "reg_base.csv"), os.path.join(data, "reg_same.csv"),
               "-f", f] for f in ("table", "json")]
    cases += [[g, "merge", os.path.join(data, "sd_a.csv"), "--out", "/dev/stdout"]]
    with tempfile.TemporaryDirectory() as tmp:
        for args in cases:
            name = " ".join(os.path.basename(a) for a in args[1:])
            fine = run(args, os.devnull, tmp)
            full = run(args, "/dev/full", tmp)
            print(f"--- {name}: exit {fine.returncode} to /dev/null, {full.returncode} to "
                  f"/dev/full\n{full.stderr}", end="")
            # merge writes its --out, /dev/stdout here, as a file: a failed write is exit 1, as
            # a run's, and nothing merged (scripts/slurm/fleet-merge.sbatch: no merged.list)
            want = 1 if args[1] == "merge" and "--out" in args else fine.returncode or 1
            check(full.returncode == want,
                  f"{name}: exit {full.returncode} with stdout full, want {want}")
            said = [line for line in full.stderr.splitlines() if "standard output" in line or
                    "/dev/stdout" in line]
            check(len(said) == 1, f"{name}: the failure said {len(said)} times, want once")
            if args[1] != "merge":  # merge writes its --out file, /dev/stdout, as a file
                check(said and said[0].startswith(SAID), f"{name}: said {said}")
        # a run with a file: the file is whole whatever happens to stdout
        for f in ("table", "csv"):
            path = os.path.join(tmp, f"r-{f}.csv")
            full = run([g, "run"] + quick + ["-f", f, "-o", path], "/dev/full", tmp)
            check(full.returncode == 1, f"run -f {f} -o: exit {full.returncode}, want 1")
            check(f"the run goes on: its rows go to {path}" in full.stderr,
                  f"run -f {f} -o: stderr does not name the file: {full.stderr}")
            rows = list(csv.reader(open(path, newline=""))) if os.path.exists(path) else []
            check(len(rows) >= 2 and all(len(r) == len(rows[0]) for r in rows),
                  f"run -f {f} -o: the file holds {len(rows)} lines")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
