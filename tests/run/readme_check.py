#!/usr/bin/python3
"""readme_check.py — the README and the binary agree: every option `gpubench --help` lists is
documented in README.md, and every workload and implementation `gpubench list` shows is in
its workload table (facts stated twice must be tested to agree). With results/README.md: its
`workload` column names every workload, and its shape-key table has a row for each.

usage: readme_check.py PATH/TO/gpubench PATH/TO/README.md [PATH/TO/results/README.md]
"""
import re
import subprocess
import sys


def main():
    gpubench, readme_path = sys.argv[1], sys.argv[2]
    readme = open(readme_path, encoding="utf-8").read()
    help_text = subprocess.run([gpubench, "--help"], capture_output=True, text=True).stdout
    listing = subprocess.run([gpubench, "list"], capture_output=True, text=True).stdout
    fails = []
    options = sorted(set(re.findall(r"^\s+(?:-\w, )?(--[a-z-]+)", help_text, re.M)))
    for opt in options:
        if not re.search(rf"(?<![\w-]){re.escape(opt)}(?![\w-])", readme):
            fails.append(f"option {opt} is not documented in README.md")
    section = readme.split("## Workloads", 1)[-1].split("\n## ", 1)[0]
    workload = None
    for line in listing.splitlines():
        if line.startswith("devices:"):
            break
        m = re.match(r"^  (\w+) ", line)
        if m:
            workload = m.group(1)
            if f"`{workload}`" not in section:
                fails.append(f"workload {workload} is missing from README's workload table")
            continue
        m = re.match(r"^    (\w+) +\[(cpu|cuda)\]", line)
        if m and workload:
            row = next((r for r in section.splitlines() if r.startswith(f"| `{workload}`")), "")
            if f"`{m.group(1)}`" not in row:
                fails.append(f"implementation {workload}/{m.group(1)} is missing from README's table")
    if len(sys.argv) > 3:
        fails += results_readme(sys.argv[3], re.findall(r"^  (\w+) ", listing.split("devices:")[0],
                                                         re.M))
    for f in fails:
        print("FAIL:", f)
    print(f"{len(options) - len([f for f in fails if f.startswith('option')]) } options checked")
    print(f"{0 if fails else 1} passed, {len(fails)} failed")
    return 1 if fails else 0


def results_readme(path, workloads):
    """What results/README.md misses of the workloads `gpubench list` shows."""
    text = open(path, encoding="utf-8").read()
    column = next((r for r in text.splitlines() if r.startswith("| `workload` |")), "")
    fails = []
    for w in workloads:
        if f"`{w}`" not in column:
            fails.append(f"workload {w} is missing from results/README.md's `workload` column")
        if not re.search(rf"^\| `{w}` \|", text, re.M):
            fails.append(f"workload {w} has no row in results/README.md's shape keys")
    return fails


if __name__ == "__main__":
    sys.exit(main())
