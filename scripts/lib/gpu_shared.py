#!/usr/bin/env python3
"""gpu_shared.py — whether a scripts/gpu-check run shared its GPU, as one line of summary.md.

Each GPU row of gpubench's CSVs says in its `shared_gpu` column (results/README.md) whether
another process held a context on the card while the row was timed, or the card was busy while
none of gpubench's work ran on it; its note says which. A kernel's event time moves little under
time-slicing, so the rows' times cannot say it: this line does, for the run as a whole.

usage: gpu_shared.py CSV...       prints one line (nothing when no CSV has a GPU row)
"""
import csv
import os
import sys


def main(paths):
    yes, known, rows, files, example = 0, 0, 0, [], ""
    for path in paths:
        if path.endswith(".samples.csv") or not os.path.isfile(path):
            continue
        with open(path, newline="") as f:
            n_yes = 0
            for r in csv.DictReader(f):
                if not r.get("device", "").startswith("cuda") or r.get("status") != "ok":
                    continue
                rows += 1
                v = r.get("shared_gpu") or ""
                known += v in ("yes", "no")
                if v == "yes":
                    n_yes += 1
                    if not example:
                        note = r.get("note", "")
                        at = note.find("shared GPU: ")
                        # the clause: "shared GPU: …" and its "the card was … busy" part
                        parts = note[at:].split("; ") if at >= 0 else [""]
                        example = "; ".join(parts[:2] if len(parts) > 1
                                            and parts[1].startswith("the card was") else parts[:1])
            yes += n_yes
            if n_yes:
                files.append(f"{os.path.basename(path)} {n_yes}")
    if not rows:
        return
    if yes:
        print(f"**Shared GPU: yes** — {yes} of {rows} timed GPU rows ({', '.join(files)}) ran "
              f"while another process held the card or it was busy without gpubench, e.g. "
              f"\"{example}\": their times are a busy card's; run again on a card of its own.")
    elif known:
        print(f"Shared GPU: no — none of the {known} timed GPU rows that could tell saw another "
              f"process on the card or the card busy without gpubench"
              + (f" ({rows - known} could not tell)" if known < rows else "") + ".")
    else:
        print(f"Shared GPU: unknown — none of the {rows} timed GPU rows could tell (no NVML "
              f"process list or utilisation).")


if __name__ == "__main__":
    main(sys.argv[1:])
