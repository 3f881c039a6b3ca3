#!/usr/bin/env python3
"""Fails when a file includes a header of a higher layer (docs/architecture.md).

    python3 scripts/check-layers.py [ROOT]

Layers, lowest first: core, domain, frontends, model, rules, engine, lsp, cli (its `lsp` command
starts the server).
report and config see core only. A file may include its own layer and any lower one. Checked:
every `#include "..."` naming analyzer/<layer>/ or rules/ in analyzer/ and rules/.
"""
import os
import re
import sys

ORDER = {"core": 0, "domain": 1, "frontends": 2, "model": 3, "rules": 4, "engine": 5, "lsp": 6, "cli": 7}
ONLY_CORE = {"report", "config"}
INCLUDE = re.compile(r'^\s*#\s*include\s*"((?:analyzer/(\w+)|(rules))/[^"]*)"')


def layer_of(rel):
    parts = rel.split("/")
    if parts[0] == "rules":
        return "rules"
    if parts[0] == "analyzer" and len(parts) > 2:
        return parts[1]
    return None


def allowed(src, dst):
    if src == dst:
        return True
    if src in ONLY_CORE:
        return dst == "core"
    if dst in ONLY_CORE:
        return src in ("engine", "cli", "lsp")  # the drivers and the engine use config and report
    if src not in ORDER or dst not in ORDER:
        return False
    return ORDER[dst] < ORDER[src]


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    bad = []
    for top in ("analyzer", "rules"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if not f.endswith((".h", ".cpp", ".inc")):
                    continue
                path = os.path.join(d, f)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                src = layer_of(rel)
                with open(path, errors="replace") as fh:
                    for n, line in enumerate(fh, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        dst = m.group(2) or m.group(3)
                        if not allowed(src, dst):
                            bad.append(f"{rel}:{n}: {src} includes {dst} ({m.group(1)})")
    for b in bad:
        print(b)
    print(f"check-layers: {len(bad)} include(s) against the layer order", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
