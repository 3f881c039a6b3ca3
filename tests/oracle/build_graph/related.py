#!/usr/bin/env python3
"""Checks cudalint's arch findings against the builds that really compile each file.

  related.py CUDALINT_BINARY --repos-dir DIR [--half check|tune|all]

For every INTR finding in a CUDA source of a checkout, each related location (where an arch it
is judged by comes from) must be the origin of an arch of one of that source's builds in
`cudalint build-graph`, and the truth (truth/<name>.json) must show the source compiled by some
real build when it lists the source at all. A finding that rests on a build that does not compile
its file is what the pooled model produced (issue 37). ARCH and VER findings are reported on
build files, not sources; they are counted, not checked here.

Exit 77 without checkouts, 1 on any violation.
"""
import argparse, json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(binary, args, cwd, timeout):
    p = subprocess.run([binary] + args, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    try:
        return json.loads(p.stdout)
    except ValueError:
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('binary')
    ap.add_argument('--repos-dir')
    ap.add_argument('--half', choices=('check', 'tune', 'all'), default='check')
    ap.add_argument('--timeout', type=int, default=1200)
    ap.add_argument('--cuda-version', default='13.0')
    args = ap.parse_args()
    if not args.repos_dir or not os.path.isdir(args.repos_dir):
        print('build_graph related check: no --repos-dir; skipping')
        return 77
    binary = os.path.abspath(args.binary)
    cfg = os.path.join(tempfile.mkdtemp(prefix='cudalint-bg-related-'), 'cudalint.toml')
    with open(cfg, 'w') as f:
        f.write('cuda-version = "%s"\n' % args.cuda_version)
    repos = json.load(open(os.path.join(HERE, 'repos.json')))
    total = bad = checked = 0
    families = {}
    for r in repos:
        if args.half != 'all' and r['half'] != args.half:
            continue
        name = r['repo'].split('/')[-1]
        checkout = os.path.join(args.repos_dir, name)
        tpath = os.path.join(HERE, 'truth', name + '.json')
        if not os.path.isdir(checkout) or not os.path.exists(tpath):
            continue
        truth = json.load(open(tpath))
        compiled = set()
        listed = set()
        for inv in truth.get('invocations', []):
            for p, e in (inv.get('sources') or {}).items():
                listed.add(os.path.normpath(p))
                compiled.add(os.path.normpath(p))
        graph = run(binary, ['build-graph', '--config', cfg, '--format', 'json', '.'], checkout, args.timeout)
        found = run(binary, ['check', '--config', cfg, '--no-cache', '--exit-zero', '--format', 'json',
                             '--select', 'INTR,ARCH,VER', '.'], checkout, args.timeout)
        if graph is None or found is None:
            print('%-40s no output' % r['repo'])
            continue
        origins = {}
        for s in graph.get('sources', []):
            o = origins.setdefault(os.path.normpath(s['path']), set())
            for b in s.get('builds', []):
                for a in b.get('archs', []):
                    if a.get('origin'):
                        o.add((a['origin']['path'], a['origin'].get('line')))
        n_bad = 0
        for f in found.get('findings', []):
            fam = f['rule'].rstrip('0123456789')
            families[fam] = families.get(fam, 0) + 1
            total += 1
            if fam != 'INTR' or not f['path'].endswith(('.cu', '.cuh')):
                continue
            checked += 1
            path = os.path.normpath(f['path'])
            why = []
            for rel in f.get('related', []):
                loc = (rel['path'], rel['region']['start_line'])
                if 'sets' in rel.get('message', '') and loc not in origins.get(path, set()):
                    why.append('related %s:%d is not an arch origin of its builds' % loc)
            if path in listed and path not in compiled:
                why.append('the truth has no build that compiles it')
            if why:
                n_bad += 1
                print('  %s %s:%d: %s' % (f['rule'], f['path'], f['region']['start_line'], '; '.join(why)))
        bad += n_bad
        print('%-40s %-5s findings %4d, violations %d' % (r['repo'], r['half'], len(found.get('findings', [])), n_bad))
    print('%s half: %d findings (%s), %d INTR findings on sources checked, %d violations' % (
        args.half, total, ', '.join('%s %d' % kv for kv in sorted(families.items())), checked, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
