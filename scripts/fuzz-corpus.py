#!/usr/bin/env python3
"""Builds the seed corpora of the fuzz targets (tests/fuzz/fuzz_<name>.cpp) from the fixtures,
the examples and the small hand-written seeds in tests/fuzz/seeds/<name>/.

    scripts/fuzz-corpus.py OUT_DIR        # writes OUT_DIR/<target>/<hash> files

Nothing here is committed: the corpora are rebuilt at run time (scripts/fuzz.sh)."""
import hashlib
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEP = b"\n#---\n"  # the part separator of the multi-file targets (see fuzz_engine.cpp)
MAX_SEED = 64 * 1024  # libFuzzer's -max_len default is derived from the corpus; keep seeds small


def files(*patterns):
    out = []
    for base in ("fixtures", "examples"):
        for pat in patterns:
            out += [p for p in (ROOT / base).rglob(pat) if p.is_file()]
    return sorted(set(out))


def is_dockerfile(p):
    n = p.name
    return n in ("Dockerfile", "Containerfile") or n.startswith("Dockerfile.") or n.endswith((".dockerfile", ".Dockerfile"))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = Path(sys.argv[1])
    counts = {}

    def add(target, data):
        data = data[:MAX_SEED]
        d = out / target
        d.mkdir(parents=True, exist_ok=True)
        (d / hashlib.sha1(data).hexdigest()).write_bytes(data)
        counts[target] = counts.get(target, 0) + 1

    every = [p for p in files("*") if p.name != "EXPECT"]
    for p in every:
        if is_dockerfile(p):
            add("dockerfile", p.read_bytes())
    for p in files("CMakeLists.txt", "*.cmake"):
        add("cmake_parse", p.read_bytes())
    for p in files("setup.py", "*.py"):
        add("setup_py", p.read_bytes())
    for p in files("*.py"):
        add("python_summary", p.read_bytes())
    for p in files("requirements*.txt"):
        add("requirements", p.read_bytes())
    for p in files("pyproject.toml"):
        add("pyproject", p.read_bytes())
        add("config", b"\x01" + p.read_bytes())
    for p in files("cudalint.toml"):
        add("config", b"\x00" + p.read_bytes())
    for p in files(".gitignore"):
        add("glob", p.read_bytes())
    kinds = {"dockerfile": 0, "cmake": 1, "setup_py": 2, "requirements": 3, "cu": 4, "pyproject": 5}
    for p in every:
        k = ("dockerfile" if is_dockerfile(p) else "cmake" if p.name == "CMakeLists.txt" or p.suffix == ".cmake"
             else "setup_py" if p.suffix == ".py" else "requirements" if p.name.startswith("requirements")
             else "cu" if p.suffix in (".cu", ".cuh") else "pyproject" if p.suffix == ".toml" else None)
        if k:
            add("source", bytes([kinds[k]]) + p.read_bytes())
            add("lsp_positions", bytes([1, 2, 3, 2, 9]) + p.read_bytes() + SEP + b"x")
    # Inline PTX: the string literals of asm() statements in CUDA sources.
    for p in files("*.cu", "*.cuh"):
        text = p.read_text(errors="replace")
        for m in re.finditer(r'asm\s*(?:volatile\s*)?\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)', text):
            lits = re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))
            add("ptx", "".join(lits).replace("\\n", "\n").replace("\\t", "\t").encode())
    # `#if` conditions: the directives of CUDA sources (and the oracle corpus), from the condition
    # on, one arch byte first.
    cu_files = files("*.cu", "*.cuh") + sorted((ROOT / "tests/oracle/intr/cases").rglob("*.cu"))
    for i, p in enumerate(cu_files):
        for m in re.finditer(rb"^[ \t]*#[ \t]*(?:el)?if[ \t]+(.*(?:\\\n.*)*)$", p.read_bytes(), re.M):
            add("pp_condition", bytes([i % 8]) + m.group(1))
    # Multi-file targets: one seed per fixture case, its files in the target's order.
    engine_files = ["Dockerfile", "CMakeLists.txt", "cmake/archs.cmake", "setup.py", "pyproject.toml",
                    "requirements.txt", "cudalint.toml", "compile_commands.json", "k.cu"]
    cases = sorted({p.parent for p in every})
    for case in cases:
        parts = []
        for name in engine_files:
            f = case / name
            if name == "cmake/archs.cmake" and not f.exists():
                f = next(iter(sorted(case.glob("*.cmake"))), f)
            if name == "k.cu" and not f.exists():
                f = next(iter(sorted(case.glob("*.cu"))), f)
            parts.append(f.read_bytes() if f.is_file() else b"")
        while parts and not parts[-1]:
            parts.pop()
        if parts:
            add("engine", SEP.join(parts))
        cm = [case / "CMakeLists.txt"] + sorted(case.glob("*.cmake"))
        cm = [f.read_bytes() for f in cm if f.is_file()]
        if cm:
            add("cmake_eval", SEP.join(cm))
    # LSP: didOpen/didChange of fixture files, framed (transport) and as separate bodies (server).
    for p in every:
        if not (is_dockerfile(p) or p.name in ("setup.py", "CMakeLists.txt", "pyproject.toml", "cudalint.toml")):
            continue
        name = "Dockerfile" if is_dockerfile(p) else p.name
        uri = "file:///tmp/cudalint-fuzz-lsp/" + name
        text = p.read_text(errors="replace")
        bodies = [
            {"jsonrpc": "2.0", "method": "textDocument/didOpen",
             "params": {"textDocument": {"uri": uri, "languageId": "x", "version": 1, "text": text}}},
            {"jsonrpc": "2.0", "method": "textDocument/didChange",
             "params": {"textDocument": {"uri": uri, "version": 2},
                        "contentChanges": [{"range": {"start": {"line": 0, "character": 0},
                                                      "end": {"line": 0, "character": 4}}, "text": "FROM"}]}},
            {"jsonrpc": "2.0", "id": 7, "method": "textDocument/codeAction",
             "params": {"textDocument": {"uri": uri}, "range": {"start": {"line": 1, "character": 0},
                                                                "end": {"line": 1, "character": 9}},
                        "context": {"diagnostics": []}}},
            {"jsonrpc": "2.0", "id": 8, "method": "textDocument/hover",
             "params": {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 2}}},
            {"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}},
        ]
        enc = [json.dumps(b).encode() for b in bodies]
        add("lsp_server", SEP.join(enc))
        add("lsp_transport", b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(e), e) for e in enc))
    # Hand-written seeds (PTX, report, glob, LSP edge cases).
    seeds = ROOT / "tests" / "fuzz" / "seeds"
    if seeds.is_dir():
        for d in sorted(seeds.iterdir()):
            for f in sorted(d.iterdir()) if d.is_dir() else []:
                add(d.name, f.read_bytes())
    for t in sorted(counts):
        print(f"{t}: {counts[t]} seeds")


if __name__ == "__main__":
    main()
