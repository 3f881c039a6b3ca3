#!/usr/bin/env python3
"""Scores cudalint's GB findings on public projects that use torch.compile against a review by hand.

    python3 review.py CUDALINT --repos-dir DIR [--half check|tune|all] [-v]

repos.json lists the projects, split before any was looked at: half = tune when
int(sha1(lower("owner/name")), 16) is even, else check; commit = the snapshot reviewed. DIR/<name>
is a checkout of it. For each project, `cudalint check . --select GB --format json --no-cache`;
each finding is matched (repo, path, line, rule) with review.json's verdict:
  true              Dynamo breaks there whenever the region runs;
  true-conditional  it breaks there only when a Python value allows (a flag, a setting): true if
                    the finding says "only when", else counted as not true (the message overstates);
  false             no break there (kept in review.json with the fix that removed it).
Printed: findings, how many are true, findings not reviewed yet (to review: exit 1), and the
reviewed findings cudalint no longer reports. Exit 1 below --min percent true; 77 without DIR.
"""
import argparse, json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('cudalint')
    ap.add_argument('--repos-dir')
    ap.add_argument('--half', default='check', choices=['check', 'tune', 'all'])
    ap.add_argument('--min', type=float, default=95.0)
    ap.add_argument('-v', '--verbose', action='store_true')
    a = ap.parse_args()
    if not a.repos_dir:
        print('review.py: no --repos-dir: skipped')
        return 77
    repos = [r for r in json.load(open(os.path.join(HERE, 'repos.json'))) if a.half in ('all', r['half'])]
    review = {(r['repo'], r['path'], r['line'], r['rule']): r for r in json.load(open(os.path.join(HERE, 'review.json')))}
    found, true, unreviewed, seen = 0, 0, [], set()
    for r in repos:
        root = os.path.join(a.repos_dir, r['repo'].split('/')[1])
        if not os.path.isdir(root):
            print(f'review.py: {root} missing', file=sys.stderr)
            return 2
        p = subprocess.run([os.path.abspath(a.cudalint), 'check', '.', '--select', 'GB', '--format', 'json',
                            '--exit-zero', '--no-cache'], cwd=root, capture_output=True, text=True)
        if p.returncode != 0:
            print(p.stderr[-2000:], file=sys.stderr)
            return 2
        n = 0
        for f in json.loads(p.stdout)['findings']:
            key = (r['repo'], f['path'], f['region']['start_line'], f['rule'])
            n += 1
            seen.add(key)
            v = review.get(key)
            if v is None:
                unreviewed.append((key, f['message']))
                continue
            ok = v['verdict'] == 'true' or (v['verdict'] == 'true-conditional' and 'only when' in f['message'])
            true += ok
            if a.verbose or not ok:
                print(f"  {'TRUE ' if ok else 'NOT TRUE'} {r['repo']} {f['path']}:{key[2]} {f['rule']} [{v['verdict']}] "
                      f"{f['severity']}: {f['message'][:140]}")
        found += n
        print(f"{r['repo']} ({r['half']}): {n} findings")
    gone = [k for k in review if k not in seen and any(k[0] == r['repo'] for r in repos)]
    pct = 100.0 * true / found if found else 100.0
    print(f'findings: {found}; true: {true} ({pct:.1f}%); not reviewed: {len(unreviewed)}; '
          f'reviewed but no longer reported: {len(gone)}')
    for k in gone:
        print(f"  gone: {k[0]} {k[1]}:{k[2]} {k[3]} [{review[k]['verdict']}]")
    for k, m in unreviewed:
        print(f"  NOT REVIEWED: {k[0]} {k[1]}:{k[2]} {k[3]}: {m[:160]}")
    return 0 if pct >= a.min and not unreviewed else 1


if __name__ == '__main__':
    sys.exit(main())
