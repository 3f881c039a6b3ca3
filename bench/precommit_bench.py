#!/usr/bin/env python3
"""A pre-commit hook's runs on one file of a real checkout, edited between runs.

  precommit_bench.py CUDALINT [--peer OTHER] --checkout DIR --file REL [--edits N] [--json-out FILE]

Each binary gets its own empty cache directory. Run 0 is `cudalint check --cache-dir C REL` on
the file as it is (no cache yet: what the first commit touching it costs). Then, N times, a
distinct comment line is appended to the file and the same command runs again (the hook on the
next commit: a cache from the earlier runs, this file changed since). With --peer the two
binaries run in turn on each version of the file, so both see the same machine state. The file
is restored after. Reported per binary: run 0, the median and p95 of the edited runs' wall
seconds and the medians of their CPU seconds and peak RSS; with --peer, the ratio of the wall
medians. Compare only figures from one
invocation, on one machine.
"""
import argparse, json, os, shutil, statistics, sys, tempfile

from real import measured_run  # one child's wall, CPU and own peak RSS


def timed(cmd, cwd):
    r = measured_run(cmd, cwd)
    if r["rc"] not in (0, 1):
        sys.exit(f"{' '.join(cmd)} exited {r['rc']}")
    return r


def p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--peer")
    ap.add_argument("--checkout", required=True)
    ap.add_argument("--file", required=True)
    ap.add_argument("--edits", type=int, default=10)
    ap.add_argument("--json-out")
    a = ap.parse_args()
    bins = {"cudalint": os.path.abspath(a.binary)}
    if a.peer:
        bins["peer"] = os.path.abspath(a.peer)
    path = os.path.join(a.checkout, a.file)
    with open(path, "rb") as f:
        original = f.read()
    tmp = tempfile.mkdtemp(prefix="cudalint-precommit-")
    runs = {name: [] for name in bins}
    try:
        for i in range(a.edits + 1):
            if i:
                with open(path, "ab") as f:
                    f.write(f"\n// edit {i}\n".encode())
            for name, b in bins.items():
                runs[name].append(timed([b, "check", "--cache-dir", os.path.join(tmp, name), a.file], a.checkout))
    finally:
        with open(path, "wb") as f:
            f.write(original)
        shutil.rmtree(tmp, ignore_errors=True)
    out = {"file": a.file, "edits": a.edits, "results": {}}
    for name, rs in runs.items():
        edited = rs[1:]
        walls = [r["wall"] for r in edited]
        cpus = [r["cpu"] for r in edited]
        res = {"first_wall": round(rs[0]["wall"], 3), "first_cpu": round(rs[0]["cpu"], 3),
               "edited_wall_median": round(statistics.median(walls), 3), "edited_wall_p95": round(p95(walls), 3),
               "edited_cpu_median": round(statistics.median(cpus), 3),
               "edited_rss_mib_median": round(statistics.median(r["rss_mib"] for r in edited), 1),
               "edited_walls": [round(w, 3) for w in walls]}
        out["results"][name] = res
        print(f"{name}: first run {res['first_wall']:.2f} s (cpu {res['first_cpu']:.2f}); edited, {a.edits} runs: "
              f"median {res['edited_wall_median']:.2f} s, p95 {res['edited_wall_p95']:.2f} s "
              f"(cpu median {res['edited_cpu_median']:.2f}, peak RSS median {res['edited_rss_mib_median']:.0f} MiB)")
    if a.peer:
        r = out["results"]
        ratio = r["peer"]["edited_wall_median"] / r["cudalint"]["edited_wall_median"]
        out["peer_over_cudalint_edited_median"] = round(ratio, 2)
        print(f"peer / cudalint, edited median: {ratio:.2f}x")
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
