#!/usr/bin/env python3
"""Picks the real .cu files of the INTR real-code oracle, before any verdict is seen.

    python3 select_files.py --cmake-dir /work/bg-repos/cm > files.json

Population: every `.cu` source that some invocation of a `check`-half repository compiles in the
build-graph oracle's truth (tests/oracle/build_graph/truth). Order: sha1("<repo>:<path>"); the first
--per-repo (30) of each repository are taken. A CMake source keeps its compile command from the
CMake run that made the truth (`--cmake-dir`: <name>__<project>/compile_commands.json), with the
checkout's and build directory's absolute paths replaced by @SRC@ and @BUILD@; a setup.py source's
command is recorded on the device machine by a logging nvcc (device_run.py).
"""
import argparse, glob, hashlib, json, os

HERE = os.path.dirname(os.path.abspath(__file__))
TRUTH = os.path.join(HERE, "..", "..", "build_graph", "truth")


def cmake_commands(cmake_dir, name):
    out = {}
    for f in sorted(glob.glob(os.path.join(cmake_dir, name + "__*", "compile_commands.json"))):
        for e in json.load(open(f)):
            if not e["file"].endswith(".cu"):
                continue
            out.setdefault(e["file"], e)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cmake-dir", required=True)
    ap.add_argument("--checkouts", default="/work/bg-repos/co")
    ap.add_argument("--per-repo", type=int, default=30)
    a = ap.parse_args()
    files = []
    for tf in sorted(glob.glob(os.path.join(TRUTH, "*.json"))):
        t = json.load(open(tf))
        if t["half"] != "check":
            continue
        name = os.path.basename(tf)[:-5]
        srcs = sorted({p for inv in t["invocations"] for p in inv["sources"] if p.endswith(".cu")})
        srcs.sort(key=lambda p: hashlib.sha1(f"{t['repo']}:{p}".encode()).hexdigest())
        cmds = cmake_commands(a.cmake_dir, name) if t["kind"] == "cmake" else {}
        root = os.path.join(a.checkouts, name)
        taken = 0
        for p in srcs:
            if taken == a.per_repo:
                break
            row = {"repo": t["repo"], "name": name, "path": p, "kind": "cmake" if cmds else "setup.py"}
            if cmds:
                e = cmds.get(os.path.join(root, p))
                if e is None:
                    continue  # built by a project whose compile commands were not kept
                d = e["directory"]
                row["command"] = e["command"].replace(root, "@SRC@").replace(d, "@BUILD@")
            files.append(row)
            taken += 1
    json.dump({"per_repo": a.per_repo, "files": files}, __import__("sys").stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
