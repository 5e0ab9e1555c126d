#!/usr/bin/env python3
"""configure_marks.py — every line configure prints about the build ("gpubench: …") ends its
subject with ✓ or ✗ (a ✗ with the reason), as STYLE.md's "one found/not-found line per optional
feature" asks: each message(STATUS "gpubench: …") of the tree's CMakeLists.txt and *.cmake files
carries one of the marks, in its text or in every branch that prints it.

usage: configure_marks.py SOURCE_DIR
"""
import os
import re
import sys


def messages(text):
    """(line, body) of each message(STATUS …) call, its parentheses and quotes balanced."""
    for m in re.finditer(r"message\(\s*STATUS\s+", text):
        i = j = m.end()
        depth, quoted = 1, False
        while depth and j < len(text):
            c = text[j]
            if c == '"' and text[j - 1] != "\\":
                quoted = not quoted
            elif not quoted and c == "(":
                depth += 1
            elif not quoted and c == ")":
                depth -= 1
            j += 1
        yield text.count("\n", 0, m.start()) + 1, text[i:j - 1]


def main():
    root = sys.argv[1]
    bad = seen = 0
    for dirpath, dirnames, files in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith((".", "build"))]
        for name in files:
            if name != "CMakeLists.txt" and not name.endswith(".cmake"):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for line, body in messages(text):
                if "gpubench:" not in body:
                    continue
                seen += 1
                if "✓" not in body and "✗" not in body:
                    bad += 1
                    print(f"FAIL: {os.path.relpath(path, root)}:{line}: no ✓ or ✗: "
                          f"{' '.join(body.split())[:160]}")
    if seen < 5:
        print(f"FAIL: only {seen} configure lines found under {root}")
        bad += 1
    print(f"{seen} configure lines, {bad} without a mark" if bad else f"{seen} configure lines ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
