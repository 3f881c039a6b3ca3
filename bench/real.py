#!/usr/bin/env python3
"""Benchmark on real checkouts: cold and warm runs, per project and all at once.

  real.py CUDALINT --repos-dir DIR [--repos a,b,c] [--jobs N] [--json-out FILE]
  real.py --make-checkouts --mirrors DIR --repos-dir DIR     # checkouts of the pinned commits

The projects and commits are bench/real_repos.json (the build-graph oracle's 31 public CUDA
projects: tests/oracle/build_graph/repos.json). `--make-checkouts` clones each from a mirror
directory the user supplies (DIR/<name> or DIR/<owner>+<name>, a git repository holding the
commit) into --repos-dir and checks the commit out; nothing is downloaded and the checkouts are
never committed.

For each checkout, and then for all of them in one run: `cudalint check --format json` with an
empty cache directory (cold), then again with the same cache (warm). Reported per run: wall
time, CPU time (user + system of the child), peak RSS (the child's maxrss), and from `cudalint
build-graph` the CUDA sources, the parses per source (the archs each source is parsed for, or
the one arch-independent parse) and the archs per source. Numbers depend on the machine: compare
only runs made in the same invocation, and name the machine and core count with them.
"""
import argparse, json, os, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))


def measured_run(cmd, cwd):
    """Wall and CPU seconds and peak RSS (MiB) of one child run. ru_maxrss of RUSAGE_CHILDREN is
    the largest of any waited-for child, so each run goes through a fresh intermediate process
    that reports its own child's figures."""
    probe = (
        "import json,resource,subprocess,sys,time\n"
        "t=time.monotonic()\n"
        "p=subprocess.run(sys.argv[2:],cwd=sys.argv[1],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL)\n"
        "w=time.monotonic()-t\n"
        "r=resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(json.dumps({'rc':p.returncode,'wall':w,'cpu':r.ru_utime+r.ru_stime,'rss_mib':r.ru_maxrss/1024}))\n")
    out = subprocess.run([sys.executable, "-c", probe, cwd] + cmd, capture_output=True, text=True)
    return json.loads(out.stdout)


def graph_stats(binary, cwd):
    p = subprocess.run([binary, "build-graph", "--format", "json", "."], cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        return {"sources": 0, "parses_per_source": None, "archs_per_source": None}
    g = json.loads(p.stdout)
    parses, archs = [], []
    for s in g.get("sources", []):
        if not s["path"].endswith((".cu", ".cuh")) or not os.path.exists(os.path.join(cwd, s["path"])):
            continue
        names = {a["name"].replace("compute_", "sm_") for b in s["builds"] for a in b["archs"]}
        archs.append(len(names))
        parses.append(max(1, len(names)))
    n = len(parses)
    return {"sources": n, "parses_per_source": round(sum(parses) / n, 2) if n else None,
            "archs_per_source": round(sum(archs) / n, 2) if n else None}


def checkout_dir(repos_dir, repo):
    name = repo.split("/")[1]
    for cand in (name, repo.replace("/", "+")):
        d = os.path.join(repos_dir, cand)
        if os.path.isdir(d):
            return d
    return None


def make_checkouts(repos, mirrors, repos_dir):
    os.makedirs(repos_dir, exist_ok=True)
    for r in repos:
        name = r["repo"].split("/")[1]
        src = checkout_dir(mirrors, r["repo"])
        dst = os.path.join(repos_dir, name)
        if not src:
            print(f"{r['repo']}: no mirror under {mirrors}", file=sys.stderr)
            continue
        if not os.path.isdir(dst):
            subprocess.run(["git", "clone", "-q", "--no-checkout", src, dst], check=True)
        p = subprocess.run(["git", "-C", dst, "checkout", "-q", "--force", r["commit"]], capture_output=True, text=True)
        if p.returncode != 0:
            # A mirror may leave out its largest blobs (images, media): write every file it has.
            rt = subprocess.run(["git", "-C", dst, "read-tree", r["commit"]], capture_output=True, text=True)
            if rt.returncode != 0:  # the mirror lacks the commit: say so, go on with the others
                print(f"{r['repo']}: cannot check out {r['commit'][:12]}: {rt.stderr.strip()}", file=sys.stderr)
                continue
            ci = subprocess.run(["git", "-C", dst, "checkout-index", "-a", "-f"], capture_output=True, text=True)
            missing = ci.stderr.count("unable to read")
            print(f"{r['repo']}: {missing} files absent from the mirror (not written)", file=sys.stderr)
        print(f"{r['repo']} @ {r['commit'][:12]} -> {dst}")


def bench(binary, dirs, jobs):
    binary = os.path.abspath(binary)
    rows = []
    for name, d in dirs:
        cache = tempfile.mkdtemp(prefix="cudalint-real-cache-")
        cmd = [binary, "check", "--format", "json", "--cache-dir", cache, "-j", str(jobs), "."]
        cold = measured_run(cmd, d)
        warm = measured_run(cmd, d)
        shutil.rmtree(cache, ignore_errors=True)
        rows.append({"project": name, "cold": cold, "warm": warm, **graph_stats(binary, d)})
        print(f"{name:32} cold {cold['wall']:7.2f} s (cpu {cold['cpu']:7.2f} s, {cold['rss_mib']:6.0f} MiB)  "
              f"warm {warm['wall']:6.2f} s  sources {rows[-1]['sources']:4}  parses/source "
              f"{rows[-1]['parses_per_source']}", flush=True)
    # All at once: one run whose paths are every checkout (one process, one cache).
    cache = tempfile.mkdtemp(prefix="cudalint-real-cache-")
    parent = os.path.commonpath([d for _, d in dirs])
    rel = [os.path.relpath(d, parent) for _, d in dirs]
    cmd = [binary, "check", "--format", "json", "--cache-dir", cache, "-j", str(jobs)] + rel
    cold = measured_run(cmd, parent)
    warm = measured_run(cmd, parent)
    shutil.rmtree(cache, ignore_errors=True)
    total = {"cold": cold, "warm": warm,
             "sum_of_cold": round(sum(r["cold"]["wall"] for r in rows), 2),
             "sum_of_warm": round(sum(r["warm"]["wall"] for r in rows), 2)}
    print(f"{'all at once':32} cold {cold['wall']:7.2f} s (cpu {cold['cpu']:7.2f} s, {cold['rss_mib']:6.0f} MiB)  "
          f"warm {warm['wall']:6.2f} s  (one at a time: cold {total['sum_of_cold']} s, warm {total['sum_of_warm']} s)")
    return {"jobs": jobs, "cpus": os.cpu_count(), "projects": rows, "all": total}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary", nargs="?")
    ap.add_argument("--repos-dir", required=True)
    ap.add_argument("--repos", help="comma-separated checkout names (default: every pinned one present)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--json-out")
    ap.add_argument("--make-checkouts", action="store_true")
    ap.add_argument("--mirrors")
    a = ap.parse_args()
    repos = json.load(open(os.path.join(HERE, "real_repos.json")))
    if a.make_checkouts:
        if not a.mirrors:
            ap.error("--make-checkouts needs --mirrors")
        make_checkouts(repos, a.mirrors, a.repos_dir)
        return 0
    if not a.binary:
        ap.error("the cudalint binary is required")
    want = set(a.repos.split(",")) if a.repos else None
    dirs = []
    for r in repos:
        name = r["repo"].split("/")[1]
        if want and name not in want:
            continue
        d = checkout_dir(a.repos_dir, r["repo"])
        if d:
            dirs.append((name, d))
    if not dirs:
        print("no checkouts found", file=sys.stderr)
        return 77
    result = bench(a.binary, dirs, a.jobs)
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
