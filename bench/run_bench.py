#!/usr/bin/env python3
"""cudalint benchmark: runs cudalint and its peers on the same files in one run and prints a table.

    python3 bench/run_bench.py [--cudalint build/cudalint] [--scale 1.0 | --dir DIR] [--runs 5]
                               [--archs "7.5;8.0;9.0"] [--clang-sample N] [--nvcc-sample N]
                               [--compiled-share F]

The generated tree (gen_tree.py) puts torch.compile in every Python module unless
--compiled-share says which fraction of them use it.

Rows (medians of --runs runs; CPU is user+sys of the process tree, RSS the peak of one process):
  cudalint cold   the whole tree, a fresh cache directory each run
  cudalint warm   the whole tree again with the cache the previous run left (when cudalint has one)
  cudalint .cu    only the sampled .cu files, for the same archs as the peers
  clang -fsyntax-only  `clang++-19 -fsyntax-only -x cuda -nocudainc -nocudalib --cuda-device-only`
                  once per arch over the same .cu files (the generated tree's shim header supplies
                  builtins, -DBENCH_CLANG_SHIM), run with as many parallel jobs as cudalint uses
  nvcc            `nvcc -c` for the same archs over a smaller sample (per-file ratio)
  pre-commit      10 changed files passed explicitly, as pre-commit does: without a cache, and
                  (with one) after editing them, with the cache the warm runs left
  lsp re-diagnose p95 of didChange → publishDiagnostics on a 2,000-line .cu (when `cudalint lsp` exists)
Ratios are peer time / cudalint time on the same files.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_tree  # noqa: E402


def run_measured(cmd, cwd=None, env=None, ok_codes=(0, 1)):
    """Runs cmd; returns (wall_s, cpu_s, peak_rss_mib). CPU and RSS come from wait4."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    if code not in ok_codes:
        raise RuntimeError(f"{cmd[0]} exited {code}: {err[-2000:]}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0


def run_parallel(cmds, jobs):
    """Runs independent commands, `jobs` at a time; returns (wall, cpu, peak rss of one)."""
    t0 = time.perf_counter()
    pending = list(cmds)
    running = {}
    cpu = 0.0
    rss = 0.0
    while pending or running:
        while pending and len(running) < jobs:
            c = pending.pop()
            p = subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            running[p.pid] = p
        pid, status, ru = os.wait4(-1, 0)
        if pid in running:
            running.pop(pid)
            cpu += ru.ru_utime + ru.ru_stime
            rss = max(rss, ru.ru_maxrss / 1024.0)
    return time.perf_counter() - t0, cpu, rss


def median_of(fn, runs):
    res = [fn() for _ in range(runs)]
    return tuple(statistics.median(r[i] for r in res) for i in range(3))


def tree_stats(paths):
    return len(paths), sum(os.path.getsize(p) for p in paths)


def all_files(root):
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".")]
        out += [os.path.join(d, f) for f in files]
    return out


def cudalint_help(cudalint):
    try:
        return subprocess.run([cudalint, "--help"], capture_output=True, text=True).stdout
    except OSError:
        return ""


def sm_names(archs):
    out = []
    for a in archs.replace(",", ";").replace(" ", ";").split(";"):
        if a:
            out.append("sm_" + a.replace(".", ""))
    return out


def lsp_p95(cudalint, cu_path, edits=40):
    """p95 latency from a didChange to its publishDiagnostics, or None without `cudalint lsp`."""
    try:
        p = subprocess.Popen([cudalint, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
    except OSError:
        return None

    def send(msg):
        body = json.dumps(msg).encode()
        p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        p.stdin.flush()

    def recv(deadline):
        headers = {}
        while True:
            if time.perf_counter() > deadline:
                return None
            line = p.stdout.readline()
            if not line:
                return None
            line = line.strip()
            if not line:
                break
            k, _, v = line.decode().partition(":")
            headers[k.lower()] = v.strip()
        return json.loads(p.stdout.read(int(headers["content-length"])))

    root = os.path.dirname(cu_path)
    uri = "file://" + cu_path
    text = open(cu_path).read()
    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"processId": None, "rootUri": "file://" + root, "capabilities": {}}})
        while True:
            m = recv(time.perf_counter() + 10)
            if m is None:
                return None
            if m.get("id") == 1:
                break
        if "error" in m:
            return None
        send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
              "params": {"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": text}}})
        lat = []
        for v in range(2, edits + 2):
            # Wait for the diagnostics of the previous version before the next edit.
            t0 = time.perf_counter()
            edit = f"// edit {v}\n"
            send({"jsonrpc": "2.0", "method": "textDocument/didChange",
                  "params": {"textDocument": {"uri": uri, "version": v},
                             "contentChanges": [{"range": {"start": {"line": 0, "character": 0},
                                                           "end": {"line": 0, "character": 0}},
                                                 "text": edit}]}})
            while True:
                m = recv(t0 + 30)
                if m is None:
                    return None
                if m.get("method") == "textDocument/publishDiagnostics" and \
                        m["params"].get("uri") == uri and m["params"].get("version", v) == v:
                    break
            lat.append(time.perf_counter() - t0)
        send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        send({"jsonrpc": "2.0", "method": "exit"})
        lat.sort()
        return lat[min(len(lat) - 1, int(0.95 * len(lat)))], statistics.median(lat)
    finally:
        try:
            p.kill()
        except OSError:
            pass


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cudalint", default=os.path.join(HERE, "..", "build", "cudalint"))
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--compiled-share", type=float, default=1.0,
                    help="fraction of Python modules that use torch.compile in the generated tree (gen_tree.py)")
    ap.add_argument("--dir", help="benchmark this tree instead of a generated one")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--archs", default="7.5;8.0;9.0")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--clang-sample", type=int, default=300, help=".cu files for the clang comparison (0 = all)")
    ap.add_argument("--nvcc-sample", type=int, default=10)
    ap.add_argument("--no-peers", action="store_true", help="cudalint rows only (smoke test)")
    a = ap.parse_args()
    cudalint = os.path.abspath(a.cudalint)

    if a.dir:
        root = os.path.abspath(a.dir)
    else:
        suffix = "" if a.compiled_share >= 1 else f"-share{a.compiled_share:g}"
        root = os.path.join(tempfile.gettempdir(), f"cudalint-bench-{a.scale:g}{suffix}")
        if not os.path.isdir(root):
            gen_tree.generate(root, a.scale, compiled_share=a.compiled_share)
    files = all_files(root)
    cu = sorted(f for f in files if f.endswith(".cu"))
    rng = random.Random(7)
    help_text = cudalint_help(cudalint)
    has_cache = "--cache-dir" in help_text
    rows = []

    def row(name, nfiles, nbytes, m, ratio=None):
        wall, cpu, rss = m
        rows.append((name, nfiles, nbytes / 2**20, wall, cpu, rss, nfiles / wall if wall else 0, ratio))

    n_all, b_all = tree_stats(files)
    cache = tempfile.mkdtemp(prefix="cudalint-cache-")
    base = [cudalint, "check", "--format", "json", "-j", str(a.jobs), "--target-archs", a.archs]

    def cold():
        if has_cache:
            shutil.rmtree(cache, ignore_errors=True)
            os.makedirs(cache)
            return run_measured(base + ["--cache-dir", cache, root])
        return run_measured(base + [root])

    m_cold = median_of(cold, a.runs)
    row("cudalint cold" if has_cache else "cudalint", n_all, b_all, m_cold)
    if has_cache:
        m_warm = median_of(lambda: run_measured(base + ["--cache-dir", cache, root]), a.runs)
        row("cudalint warm", n_all, b_all, m_warm, m_cold[0] / m_warm[0])

    changed = rng.sample(files, min(10, len(files)))
    nocache = ["--no-cache"] if has_cache else []
    m_pc = median_of(lambda: run_measured(base + nocache + changed), a.runs)
    row("pre-commit (10 files)" + (", no cache" if has_cache else ""), *tree_stats(changed), m_pc)
    if has_cache:
        # As a hook runs: the 10 files were just edited (their own products miss), the rest of
        # the cache is what the previous run left (precompiled preludes, other files).
        originals = {f: open(f, "rb").read() for f in changed}
        edits = [0]

        def edited_run():
            edits[0] += 1
            for f, text in originals.items():
                mark = "//" if f.endswith((".cu", ".cuh")) else "#"
                with open(f, "wb") as out:
                    out.write(text + f"\n{mark} bench edit {edits[0]}\n".encode())
            return run_measured(base + ["--cache-dir", cache] + changed)

        try:
            m_pce = median_of(edited_run, a.runs)
        finally:
            for f, text in originals.items():
                with open(f, "wb") as out:
                    out.write(text)
        row("pre-commit (10 edited files)", *tree_stats(changed), m_pce, m_pc[0] / m_pce[0])

    if not a.no_peers and cu:
        sample = cu if a.clang_sample == 0 or a.clang_sample >= len(cu) else rng.sample(cu, a.clang_sample)
        n_s, b_s = tree_stats(sample)
        m_cl = median_of(lambda: run_measured(base + nocache + sample), a.runs)
        row(".cu only: cudalint", n_s, b_s, m_cl)
        clang = shutil.which("clang++-19")
        if clang:
            cmds = [[clang, "-fsyntax-only", "-x", "cuda", "-nocudainc", "-nocudalib", "--cuda-device-only",
                     f"--cuda-gpu-arch={sm}", "-DBENCH_CLANG_SHIM", "-Wno-unknown-cuda-version", f]
                    for f in sample for sm in sm_names(a.archs)]
            m_clang = median_of(lambda: run_parallel(cmds, a.jobs), max(1, min(a.runs, 3)))
            row(".cu only: clang -fsyntax-only", n_s, b_s, m_clang, m_clang[0] / m_cl[0])
        nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
        if nvcc and a.nvcc_sample:
            ns = rng.sample(cu, min(a.nvcc_sample, len(cu)))
            n_n, b_n = tree_stats(ns)
            gencode = []
            for sm in sm_names(a.archs):
                gencode += ["-gencode", f"arch=compute_{sm[3:]},code={sm}"]
            m_cn = median_of(lambda: run_measured(base + nocache + ns), a.runs)
            row("nvcc sample: cudalint", n_n, b_n, m_cn)
            cmds = [[nvcc, "-c", "-o", os.devnull] + gencode + [f] for f in ns]
            m_nvcc = median_of(lambda: run_parallel(cmds, a.jobs), 1)
            row("nvcc sample: nvcc -c", n_n, b_n, m_nvcc, m_nvcc[0] / m_cn[0])

    big = next((f for f in cu if sum(1 for _ in open(f)) >= 1500), None)
    lsp = lsp_p95(cudalint, big) if big and "lsp" in help_text else None
    shutil.rmtree(cache, ignore_errors=True)

    print(f"tree: {root} ({n_all} files, {b_all / 2**20:.1f} MiB); archs {a.archs}; {a.jobs} jobs; "
          f"median of {a.runs} runs")
    hdr = f"| {'measurement':<32} | {'files':>6} | {'MiB':>7} | {'wall s':>8} | {'CPU s':>8} | {'peak RSS MiB':>12} " \
          f"| {'files/s':>9} | {'ratio':>8} |"
    print(hdr)
    print("|" + "|".join("-" * (len(c)) for c in hdr.split("|")[1:-1]) + "|")
    for name, nf, mib, wall, cpu, rss, fps, ratio in rows:
        r = f"{ratio:.1f}x" if ratio else ""
        print(f"| {name:<32} | {nf:>6} | {mib:>7.1f} | {wall:>8.3f} | {cpu:>8.2f} | {rss:>12.1f} | {fps:>9.0f} | {r:>8} |")
    if lsp:
        print(f"lsp re-diagnose of {os.path.basename(big)} after an edit: p95 {lsp[0] * 1000:.1f} ms, "
              f"median {lsp[1] * 1000:.1f} ms")
    else:
        print("lsp re-diagnose: n/a (no `cudalint lsp`, or no .cu of 1,500+ lines in the tree)")


if __name__ == "__main__":
    main()
