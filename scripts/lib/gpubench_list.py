"""gpubench_list.py — `gpubench list` read back: the workloads this binary has, in registry order,
with their implementations and shapes. Scripts and tests that need workload names get them here
(or from CMake's GPUBENCH_WORKLOADS), never from a list of their own.

    import gpubench_list                   # sys.path gets scripts/lib first
    for w in gpubench_list.read("build/gpubench"):
        w.name, w.impls("cpu"), w.quick[0]  # "…", ["cpu", "openblas"], "n=1048576"

Shapes are as `list` prints them: comma-separated key=value pairs, the form --shape W:… takes.
"""
import os
import subprocess
from dataclasses import dataclass, field


@dataclass
class Workload:
    name: str
    summary: str
    impl_kinds: list = field(default_factory=list)  # (impl, device kind "cpu" or "cuda")
    tiers: dict = field(default_factory=dict)  # impl -> its precision tiers, ["f32", "f64", …]
    default: list = field(default_factory=list)
    quick: list = field(default_factory=list)
    sweep: list = field(default_factory=list)

    def impls(self, kind=None):
        """Implementation names, all or those that run on `kind` ("cpu", "cuda")."""
        return [i for i, k in self.impl_kinds if kind is None or k == kind]


def parse(text):
    """The workloads of a `gpubench list` output, in its order."""
    out, w = [], None
    for line in text.splitlines():
        if line.startswith("devices:"):
            break
        if line.startswith("    ") and w is not None:
            words = line.split()
            if words[0] in ("default", "quick", "sweep"):
                getattr(w, words[0]).extend(words[1:])
            elif len(words) > 1 and words[1].startswith("[") and words[1].endswith("]"):
                w.impl_kinds.append((words[0], words[1][1:-1]))
                w.tiers[words[0]] = words[2].split(",") if len(words) > 2 else ["f32"]
        elif line.startswith("  ") and not line.startswith("   "):
            name, _, summary = line.strip().partition(" ")
            w = Workload(name, summary.strip())
            out.append(w)
    return out


def read(gpubench):
    """Run `GPUBENCH list` and parse it (its wide form: COLUMNS would fit it to a terminal)."""
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    text = subprocess.run([gpubench, "list"], capture_output=True, text=True, check=True,
                          env=env).stdout
    return parse(text)


def first_pair(shape):
    """("n", 4096) of "n=4096,…": a shape's first key and its value."""
    key, _, value = shape.replace(";", ",").split(",")[0].partition("=")
    return key, int(value)
