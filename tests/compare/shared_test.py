#!/usr/bin/env python3
"""shared_test.py — `gpubench compare` on runs timed on a shared GPU (the run CSV's shared_gpu
column, results/README.md): both modes name such a run, regression mode says beside its verdict
that it rests on a busy card, and --strict gives no verdict built on it (one line, exit 1).

usage: shared_test.py GPUBENCH DATA_DIR

The runs are the GPU rows of DATA_DIR/reg_runs_tel_base.csv (five runs, no shared_gpu column:
a file from before it) and a copy under other run ids with the column: every row "no", or one
run's rows "yes". The copy's times are the same, so every row is SAME and --strict has nothing
else to refuse."""
import csv
import json
import os
import subprocess
import sys
import tempfile

failures = 0


def check(ok, what):
    global failures
    if not ok:
        failures += 1
        print(f"FAIL: {what}")


def write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def main():
    gb, data = sys.argv[1], sys.argv[2]
    table = list(csv.reader(open(os.path.join(data, "reg_runs_tel_base.csv"))))
    head, rows = table[0], [r for r in table[1:]]
    dev, rid = head.index("device"), head.index("run_id")
    rows = [r for r in rows if r[dev] != "cpu"]
    runs = sorted({r[rid] for r in rows})
    shared_run = runs[2] + "-copy"
    n = sum(r[rid] == runs[2] for r in rows)  # GPU rows per run
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(tmp, "base.csv")
        alone = os.path.join(tmp, "alone.csv")
        shared = os.path.join(tmp, "shared.csv")
        write(base, head, rows)
        copy = [r[:rid] + [r[rid] + "-copy"] + r[rid + 1:] for r in rows]
        write(alone, head + ["shared_gpu"], [r + ["no"] for r in copy])
        write(shared, head + ["shared_gpu"],
              [r + ["yes" if r[rid] == shared_run else "no"] for r in copy])

        def compare(*args):
            p = subprocess.run([gb, "compare"] + list(args), capture_output=True, text=True)
            return p.returncode, p.stdout, p.stderr

        # a card of its own: nothing said, --strict has nothing to refuse
        rc, out, err = compare(base, alone, "--strict")
        check(rc == 0, f"alone --strict: exit {rc}, want 0: {out[-400:]}{err}")
        check("shared" not in out.lower(), f"alone: the report mentions sharing:\n{out}")
        # one new run on a shared card: named under the sides, said beside the verdict
        rc, out, err = compare(base, shared)
        check(rc == 0, f"shared: exit {rc}, want 0 (no --strict): {err}")
        want = (f"shared GPU: new run {shared_run} of {shared}: {n} of {n} GPU rows timed while "
                "another process held the card or it was busy without gpubench")
        check(want in out, f"shared: the report does not name the run ({want!r}):\n{out}")
        named = [x for x in out.splitlines() if x.startswith("shared GPU: ")]
        check(len(named) == 1, f"shared: only one run is shared: {named}")
        check("1 run above was timed on a shared GPU: the verdict rests on a busy card's times "
              "(--strict refuses it)" in out, f"shared: nothing beside the verdict:\n{out}")
        check(f"no regression: {n} SAME" in out, f"shared: the verdict itself changed:\n{out}")
        # --strict: no verdict, one line, exit 1
        rc, out, err = compare(base, shared, "--strict")
        last = out.strip().splitlines()[-1] if out.strip() else ""
        check(rc == 1, f"shared --strict: exit {rc}, want 1")
        check(last == "SHARED GPU (--strict): no verdict: 1 run above was timed on a shared "
              "card; run it again on a card of its own", f"shared --strict: last line {last!r}")
        check("no regression" not in out, f"shared --strict: a verdict was given:\n{out}")
        # JSON: each run says it; base runs (no column) are unknown
        for strict, want_exit in ((False, 0), (True, 1)):
            rc, out, err = compare(base, shared, "--format", "json", *(["--strict"] if strict else []))
            try:
                d = json.loads(out)
            except ValueError:
                check(False, f"json: not JSON: {out[:300]} {err}")
                continue
            flags = {r["run_id"]: r.get("shared_gpu", "missing") for r in d["new"]["runs"]}
            check(flags == {r + "-copy": r + "-copy" == shared_run for r in runs},
                  f"json: new runs' shared_gpu {flags}")
            check(all(r.get("shared_gpu", "missing") is None for r in d["base"]["runs"]),
                  f"json: base runs' shared_gpu {d['base']['runs']}")
            check(d.get("shared_runs") == 1 and d.get("exit") == want_exit and rc == want_exit,
                  f"json strict={strict}: shared_runs {d.get('shared_runs')}, exit {d.get('exit')}"
                  f"/{rc}")
        # slowdown mode: one run against the shared one
        one = os.path.join(tmp, "one.csv")
        write(one, head, [r for r in rows if r[rid] == runs[0]])
        sh1 = os.path.join(tmp, "sh1.csv")
        write(sh1, head + ["shared_gpu"], [r + ["yes"] for r in copy if r[rid] == shared_run])
        rc, out, err = compare(one, sh1, "--baseline", "cuda:0")
        check(rc == 0, f"slowdown: exit {rc}: {err}")
        check(f"shared GPU: cuda:0 of run {shared_run} of {sh1}: {n} of {n} GPU rows" in out,
              f"slowdown: the run is not named:\n{out}")
        rc, out, err = compare(one, sh1, "--baseline", "cuda:0", "--strict")
        last = out.strip().splitlines()[-1] if out.strip() else ""
        check(rc == 1 and last.startswith("SHARED GPU (--strict): no verdict: 1 run above"),
              f"slowdown --strict: exit {rc}, last line {last!r}")
        rc, out, err = compare(one, sh1, "--baseline", "cuda:0", "--format", "json")
        d = json.loads(out) if rc == 0 else {}
        check(d.get("baseline", {}).get("shared_gpu", "missing") is None
              and any(x.get("shared_gpu") is True for x in d.get("lines", [])),
              f"slowdown json: baseline {d.get('baseline')}, lines' shared_gpu "
              f"{[x.get('shared_gpu') for x in d.get('lines', [])][:4]}")
    print(f"shared_test: {'FAILED' if failures else 'ok'} ({failures} failures)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
