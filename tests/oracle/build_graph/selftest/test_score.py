#!/usr/bin/env python3
"""Self-test of score.py without cudalint: a hand-made build graph (extension-cpp.json here) and
graphs made from the truth itself (all match), then one wrong arch (the check half fails --min 100)."""
import json, os, subprocess, sys, tempfile
HERE = os.path.dirname(os.path.abspath(__file__)); ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
import score

def graph_from_truth(t, spoil=False):
    srcs, _ = score.truth_local(t)
    out = {'version': 1, 'targets': [{'id': 0, 'kind': 'project', 'name': 'x', 'origin': None}],
           'invocations': [{'id': 0, 'kind': 'local', 'origin': None, 'command': 'x'},
                           {'id': 1, 'kind': 'dockerfile', 'origin': {'path': 'Dockerfile', 'line': 1}, 'command': 'x'}],
           'sources': []}
    for i, (p, e) in enumerate(sorted(srcs.items())):
        archs = sorted(e['archs'])
        if spoil and i == 0 and not e['unknown']: archs = archs + ['sm_120']
        out['sources'].append({'path': p, 'builds': [
            {'target': 0, 'invocation': 0, 'archs_known': not e['unknown'],
             'archs': [{'name': a, 'ptx': a.startswith('compute_')} for a in archs]},
            {'target': 0, 'invocation': 1, 'archs_known': True, 'archs': [{'name': 'sm_52', 'ptx': False}]}]})
    return out

def run(d, *extra):
    return subprocess.run([sys.executable, os.path.join(ROOT, 'score.py'), '--offline-json', d, *extra], capture_output=True, text=True)

def main():
    ok = True
    with tempfile.TemporaryDirectory() as d:
        p = run(HERE, '--half', 'check', '--json-report', os.path.join(d, 'r.json'))
        rep = {r['repo']: r for r in json.load(open(os.path.join(d, 'r.json')))['repos']}
        ec = rep['pytorch/extension-cpp']
        ok &= ec['unknown'] == 1 and ec['unknown_correct'] == 1 and not ec['mismatches']
        truths = [json.load(open(os.path.join(ROOT, 'truth', f))) for f in os.listdir(os.path.join(ROOT, 'truth'))]
        for spoil in (False, True):
            g = os.path.join(d, 'spoil' if spoil else 'good'); os.makedirs(g)
            for t in truths:
                json.dump(graph_from_truth(t, spoil), open(os.path.join(g, t['repo'].split('/')[1] + '.json'), 'w'))
            p = run(g, '--half', 'all', '--min', '100')
            want = 1 if spoil else 0
            if p.returncode != want: ok = False; print(p.stdout, p.stderr)
        p = subprocess.run([sys.executable, os.path.join(ROOT, 'score.py'), '/nonexistent', '--repos-dir', '/nonexistent'])
        ok &= p.returncode == 77
    print('score.py self-test:', 'ok' if ok else 'FAILED')
    return 0 if ok else 1

if __name__ == '__main__':
    sys.exit(main())
