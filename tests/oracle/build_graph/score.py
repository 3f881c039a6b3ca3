#!/usr/bin/env python3
"""Scores cudalint's build graph against the build-graph oracle (truth/*.json).

  score.py CUDALINT_BINARY --repos-dir DIR [--half check|tune|all] [--min 95]
  score.py --offline-json DIR [--repos-dir DIR] [--half ...]

A truth source is compared on the 'local' invocations (all working directories of a repository:
`pip wheel .` for each setup.py build dir, `cmake` for each CMake project): its truth is the union of
their arch sets, or unknown when any of them left it to the local GPU. cudalint's answer is the union
of the arch names of the source's builds whose invocation has kind 'local', or unknown when any such
build has archs_known false. Exit 77 when there is nothing to score (no --repos-dir / --offline-json),
1 when the check half's exact-match rate is under --min.
"""
import argparse, json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77

def truth_local(t):
    srcs = {}
    runs = [v for v in t.get('invocations', []) if v.get('name') == 'local']
    for v in runs:
        for p, e in (v.get('sources') or {}).items():
            cur = srcs.setdefault(os.path.normpath(p), {'archs': set(), 'unknown': False})
            if e.get('archs') is None: cur['unknown'] = True
            else: cur['archs'].update(e['archs'])
    complete = bool(runs) and all(str(v.get('status', '')).startswith(('ok', 'partial')) for v in runs)
    return srcs, complete

def tool_local(g):
    if not isinstance(g, dict): return {}
    invs = g.get('invocations') or []
    local_ids = {i.get('id') for i in invs if isinstance(i, dict) and i.get('kind') == 'local'}
    out = {}
    for s in g.get('sources') or []:
        if not isinstance(s, dict) or not s.get('path'): continue
        p = os.path.normpath(s['path'])
        for b in s.get('builds') or []:
            if not isinstance(b, dict) or b.get('invocation') not in local_ids: continue
            cur = out.setdefault(p, {'archs': set(), 'unknown': False})
            if b.get('archs_known') is False: cur['unknown'] = True
            for a in b.get('archs') or []:
                n = a.get('name') if isinstance(a, dict) else a
                if isinstance(n, str): cur['archs'].add(n)
    return out

def get_graph(args, name, checkout):
    if args.offline_json:
        f = os.path.join(args.offline_json, name + '.json')
        if not os.path.exists(f): return None, 'no saved output'
        try: return json.load(open(f)), None
        except ValueError as e: return None, 'bad JSON: %s' % e
    try:
        # The truth's local builds ran with nvcc 13.0: the toolkit a developer's machine has here.
        cmd = [args.binary, 'build-graph', '--format', 'json', '--no-cache', '.']
        if args.cuda_version:
            cfg = os.path.join(args.tmp, 'cudalint.toml')
            with open(cfg, 'w') as f: f.write('cuda-version = "%s"\n' % args.cuda_version)
            cmd[2:2] = ['--config', cfg]
        p = subprocess.run(cmd, cwd=checkout, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return None, 'timeout'
    try: return json.loads(p.stdout), None
    except ValueError: return None, 'exit %d, no JSON: %s' % (p.returncode, (p.stderr or '')[-200:].strip())

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('binary', nargs='?')
    ap.add_argument('--repos-dir')
    ap.add_argument('--offline-json')
    ap.add_argument('--half', choices=('check', 'tune', 'all'), default='check')
    ap.add_argument('--min', type=float, default=95.0)
    ap.add_argument('--timeout', type=int, default=600)
    ap.add_argument('--json-report')
    ap.add_argument('--verbose', '-v', action='store_true')
    ap.add_argument('--cuda-version', default='13.0',
                    help="toolkit cudalint assumes for the developer's machine (the truth's local builds had nvcc 13.0); '' for none")
    args = ap.parse_args()
    import atexit, shutil, tempfile
    args.tmp = tempfile.mkdtemp(prefix='cudalint-bg-score-')
    atexit.register(shutil.rmtree, args.tmp, True)
    if args.binary: args.binary = os.path.abspath(args.binary)
    if not args.offline_json and (not args.repos_dir or not os.path.isdir(args.repos_dir)):
        print('build_graph oracle: no --repos-dir (checkouts) given or found; skipping'); return SKIP
    if not args.offline_json and not args.binary:
        ap.error('CUDALINT_BINARY is needed unless --offline-json is given')
    truths = []
    for f in sorted(os.listdir(os.path.join(HERE, 'truth'))):
        if f.endswith('.json'): truths.append(json.load(open(os.path.join(HERE, 'truth', f))))
    report = []; tot = {'check': [0, 0, 0, 0], 'tune': [0, 0, 0, 0]}
    for t in truths:
        half = t.get('half')
        if args.half != 'all' and half != args.half: continue
        owner, name = t['repo'].split('/')
        checkout = None
        if args.repos_dir:
            for c in (name, owner + '+' + name, owner + '__' + name):
                if os.path.isdir(os.path.join(args.repos_dir, c)): checkout = os.path.join(args.repos_dir, c); break
        if checkout is None and not args.offline_json:
            report.append({'repo': t['repo'], 'half': half, 'skipped': 'no checkout'}); continue
        truth, complete = truth_local(t)
        g, err = get_graph(args, name, checkout)
        if g is None:
            g = {}
        tool = tool_local(g)
        dec = exact = unk = unk_ok = 0; mism = []
        for p, e in sorted(truth.items()):
            got = tool.get(p)
            if e['unknown']:
                unk += 1
                if got and got['unknown']: unk_ok += 1
                else: mism.append({'source': p, 'truth': 'unknown (local GPU)', 'cudalint': sorted(got['archs']) if got else 'not reported'})
                continue
            dec += 1
            if got and not got['unknown'] and got['archs'] == e['archs']: exact += 1
            else:
                mism.append({'source': p, 'truth': sorted(e['archs']),
                             'cudalint': ('unknown' if got['unknown'] else sorted(got['archs'])) if got else 'not reported'})
        extra = sorted(p for p in tool if p not in truth and p.endswith('.cu')) if complete else []
        r = {'repo': t['repo'], 'half': half, 'decidable': dec, 'exact': exact, 'unknown': unk, 'unknown_correct': unk_ok,
             'extra_sources': extra, 'mismatches': mism}
        if err: r['cudalint_error'] = err
        report.append(r)
        for k, v in zip(range(4), (dec, exact, unk, unk_ok)): tot[half][k] += v
    print('%-46s %-5s %9s %7s %8s %6s' % ('repository', 'half', 'decidable', 'exact', 'unknown', 'extra'))
    for r in report:
        if 'skipped' in r: print('%-46s %-5s  skipped: %s' % (r['repo'], r['half'], r['skipped'])); continue
        print('%-46s %-5s %9d %7d %4d/%-3d %6d%s' % (r['repo'], r['half'], r['decidable'], r['exact'], r['unknown_correct'], r['unknown'],
              len(r['extra_sources']), ('  (' + r['cudalint_error'] + ')') if r.get('cudalint_error') else ''))
        for m in r['mismatches'][: (None if args.verbose else 5)]:
            print('    mismatch %s: truth %s, cudalint %s' % (m['source'], m['truth'], m['cudalint']))
        if len(r['mismatches']) > 5 and not args.verbose: print('    ... %d more (-v)' % (len(r['mismatches']) - 5))
    rc = 0
    for h, (dec, exact, unk, unk_ok) in tot.items():
        if args.half not in (h, 'all'): continue
        rate = 100.0 * exact / dec if dec else 100.0
        print('%s half: %d decidable sources, %d exact (%.1f%%), unknown correct %d/%d' % (h, dec, exact, rate, unk_ok, unk))
        if h == 'check' and rate < args.min: rc = 1
    if args.json_report: json.dump({'repos': report, 'totals': tot}, open(args.json_report, 'w'), indent=1)
    return rc

if __name__ == '__main__':
    sys.exit(main())
