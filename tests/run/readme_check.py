#!/usr/bin/python3
"""readme_check.py — the README and the binary agree: every option `gpubench --help` lists is
documented in README.md, and every workload and implementation `gpubench list` shows is in
its workload table (facts stated twice must be tested to agree).

usage: readme_check.py PATH/TO/gpubench PATH/TO/README.md
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
    for f in fails:
        print("FAIL:", f)
    print(f"{len(options) - len([f for f in fails if f.startswith('option')]) } options checked")
    print(f"{0 if fails else 1} passed, {len(fails)} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
