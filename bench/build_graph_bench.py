#!/usr/bin/env python3
"""Build graph on real checkouts: parses per source, and one run over many projects against
running them one at a time.

  build_graph_bench.py CUDALINT --repos-dir DIR [--repos a,b,c] [--runs 2] [--select INTR]

For each checkout (a directory of DIR; the build-graph oracle's checkouts, see
tests/oracle/build_graph/README.md): the CUDA sources, the archs each is parsed for (its builds'
known archs, or the one arch-independent parse when none is known), and the size of the union of
every arch in the tree (what a model that pools every build file's list would parse each source
for). Then the wall time of `cudalint check --no-cache` on each checkout alone, summed, against
one run over all of them, as medians of --runs interleaved runs. Prints a table; nothing is
written to the checkouts.
"""
import argparse, json, os, statistics, subprocess, sys, time


def graph(binary, cwd):
    p = subprocess.run([binary, 'build-graph', '--format', 'json', '.'], cwd=cwd, capture_output=True, text=True)
    return json.loads(p.stdout) if p.returncode == 0 else {'sources': []}


def parses(g):
    per = []
    union = set()
    for s in g.get('sources', []):
        if not s['path'].endswith(('.cu', '.cuh')):
            continue
        archs = {a['name'].replace('compute_', 'sm_') for b in s['builds'] for a in b['archs']}
        union |= archs
        per.append(max(1, len(archs)))
    return per, union


def timed(cmd, cwd):
    t = time.monotonic()
    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('binary')
    ap.add_argument('--repos-dir', required=True)
    ap.add_argument('--repos', help='comma-separated directory names (default: all)')
    ap.add_argument('--runs', type=int, default=2)
    ap.add_argument('--select', default='INTR')
    ap.add_argument('-j', '--jobs', default=str(os.cpu_count() or 2))
    args = ap.parse_args()
    binary = os.path.abspath(args.binary)
    names = args.repos.split(',') if args.repos else sorted(os.listdir(args.repos_dir))
    names = [n for n in names if os.path.isdir(os.path.join(args.repos_dir, n))]
    check = [binary, 'check', '--no-cache', '--exit-zero', '--select', args.select, '-j', args.jobs]
    print('%-28s %8s %14s %12s' % ('checkout', 'sources', 'parses/source', 'pooled archs'))
    tot_src = tot_parse = 0
    all_union = set()
    for n in names:
        per, union = parses(graph(binary, os.path.join(args.repos_dir, n)))
        all_union |= union
        tot_src += len(per)
        tot_parse += sum(per)
        print('%-28s %8d %14.2f %12d' % (n, len(per), sum(per) / len(per) if per else 0, len(union)))
    print('%-28s %8d %14.2f %12d   (pooled over all: every source parsed %d times)' % (
        'all', tot_src, tot_parse / tot_src if tot_src else 0, len(all_union), max(1, len(all_union))))
    alone, together = [], []
    for _ in range(args.runs):
        alone.append(sum(timed(check + ['.'], os.path.join(args.repos_dir, n)) for n in names))
        together.append(timed(check + names, args.repos_dir))
    a, t = statistics.median(alone), statistics.median(together)
    print('one at a time (sum): %.2f s   all at once: %.2f s   ratio all/one-at-a-time: %.2f  (medians of %d, -j %s)'
          % (a, t, t / a if a else 0, args.runs, args.jobs))
    return 0


if __name__ == '__main__':
    sys.exit(main())
