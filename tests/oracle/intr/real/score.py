#!/usr/bin/env python3
"""Scores cudalint's INTR rules against nvcc on real .cu files of public projects.

    python3 score.py CUDALINT --repos-dir DIR [--min 99] [-v] [--json-report F]

verdicts.json holds nvcc 13.0's verdict for each file of files.json on each target it reached
(device_run.py, with the project's own command line). A file that nvcc compiles for no target is
left out (the oracle's copy lacks something it needs: a newer library, a header over the carry's
size limit). For the others, on each target with a verdict, cudalint "rejects" the file when it
reports an INTR finding of severity error in it or in a project header nvcc's `-M` lists for it:

    cudalint check <the repository's files> --target-archs T --select INTR,PARSE --format json

run in DIR/<name>, a checkout of the commit of tests/oracle/build_graph/repos.json. Printed:
agreement, false rejections (cudalint rejects, nvcc compiles: a false INTR error), misses, and
PARSE findings on these files (front-end failures on valid code). Exit 1 below --min percent or on
any false rejection; 77 (skip) without --repos-dir.
"""
import argparse, collections, json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('cudalint')
    ap.add_argument('--repos-dir')
    ap.add_argument('--min', type=float, default=99.0)
    ap.add_argument('-v', '--verbose', action='store_true')
    ap.add_argument('--json-report')
    a = ap.parse_args()
    a.cudalint = os.path.abspath(a.cudalint)
    if not a.repos_dir:
        print('score.py: no --repos-dir: skipped')
        return 77
    data = json.load(open(os.path.join(HERE, 'verdicts.json')))
    files = [f for f in data['files'] if any(v['ok'] for v in f['verdicts'].values())]
    left = [f for f in data['files'] if f['verdicts'] and f not in files]
    by_repo = collections.defaultdict(list)
    for f in files:
        by_repo[f['name']].append(f)
    rows, parse = [], []
    with tempfile.TemporaryDirectory() as cache:
        for name, fs in sorted(by_repo.items()):
            root = os.path.join(a.repos_dir, name)
            if not os.path.isdir(root):
                print(f'score.py: {root} missing', file=sys.stderr)
                return 2
            targets = sorted({t for f in fs for t in f['verdicts']})
            for t in targets:
                members = [f for f in fs if t in f['verdicts']]
                p = subprocess.run([a.cudalint, 'check', *[f['path'] for f in members], '--target-archs', t,
                                    '--select', 'INTR,PARSE', '--format', 'json', '--exit-zero',
                                    '--cache-dir', cache], cwd=root, capture_output=True, text=True)
                if p.returncode != 0:
                    print(f'cudalint failed in {name} for {t}: {p.stderr[-2000:]}', file=sys.stderr)
                    return 2
                found = json.loads(p.stdout)['findings']
                for f in members:
                    mine = {f['path'], *f.get('headers', [])}
                    errs = [x for x in found if x['rule'].startswith('INTR') and x['severity'] == 'error'
                            and x['path'] in mine]
                    parse += [(name, f['path'], t, x['message']) for x in found
                              if x['rule'].startswith('PARSE') and x['path'] in mine]
                    nv = f['verdicts'][t]
                    rows.append({'repo': name, 'path': f['path'], 'target': t, 'nvcc_ok': nv['ok'],
                                 'cudalint_ok': not errs, 'nvcc_errors': nv['errors'][:2],
                                 'cudalint': [f"{x['path']}:{x['region']['start_line']}: {x['rule']} {x['message']}"
                                              for x in errs[:3]]})
    agree = sum(r['nvcc_ok'] == r['cudalint_ok'] for r in rows)
    fp = [r for r in rows if r['nvcc_ok'] and not r['cudalint_ok']]
    fn = [r for r in rows if not r['nvcc_ok'] and r['cudalint_ok']]
    rej = sum(not r['nvcc_ok'] for r in rows)
    per = collections.Counter(r['repo'] for r in rows)
    print(f'files scored: {len(files)} ({len(left)} left out: nvcc compiles them for no target)')
    print('verdicts per repository: ' + ', '.join(f'{k} {v}' for k, v in sorted(per.items())))
    print(f'agreement: {agree}/{len(rows)} ({100.0 * agree / max(1, len(rows)):.2f}%); nvcc rejections {rej}; '
          f'false rejections {len(fp)}; misses {len(fn)}')
    pf = sorted({(n, p) for n, p, _, _ in parse})
    print(f'PARSE findings: {len(parse)} on {len(pf)} files')
    for r in fp + fn:
        kind = 'FALSE REJECTION' if r['nvcc_ok'] else 'MISS'
        print(f"  {kind} {r['repo']}/{r['path']} {r['target']}: " +
              ('; '.join(r['cudalint']) if r['nvcc_ok'] else '; '.join(r['nvcc_errors'])))
    if a.verbose:
        for n, p, t, m in parse:
            print(f'  PARSE {n}/{p} {t}: {m}')
    if a.json_report:
        json.dump({'rows': rows, 'parse': parse}, open(a.json_report, 'w'), indent=1)
    ok = 100.0 * agree / max(1, len(rows)) >= a.min and not fp
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
