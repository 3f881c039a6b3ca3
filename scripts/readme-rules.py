#!/usr/bin/env python3
"""Writes (or with --check, verifies) README.md's rules table from `cudalint rules --format json`,
so the table cannot drift from the rules' declared metadata.

    python3 scripts/readme-rules.py build/cudalint [--check]
"""
import json
import os
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
HEAD = "| id | name | severity | fix | default |\n|---|---|---|---|---|\n"
FIX = {"none": "–", "sometimes": "sometimes", "always": "always"}


def table(binary):
    rules = json.loads(subprocess.run([binary, "rules", "--format", "json"], check=True,
                                      capture_output=True, text=True).stdout)
    rows = [f"| {r['id']} | {r['name']} | {r['severity']} | {FIX.get(r['fix'], r['fix'])} | "
            f"{'on' if r['default_enabled'] else 'off'} |\n" for r in rules]
    return HEAD + "".join(rows)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    path = os.path.join(ROOT, "README.md")
    text = open(path, encoding="utf-8").read()
    start = text.index("## Rules\n")
    begin = text.index("| id |", start)
    end = begin
    lines = text[begin:].splitlines(keepends=True)
    for line in lines:
        if not line.startswith("|"):
            break
        end += len(line)
    new = text[:begin] + table(sys.argv[1]) + text[end:]
    if "--check" in sys.argv:
        if new != text:
            print("README.md's rules table is out of date: run scripts/readme-rules.py build/cudalint")
            return 1
        print("README.md's rules table matches the registry")
        return 0
    open(path, "w", encoding="utf-8").write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
