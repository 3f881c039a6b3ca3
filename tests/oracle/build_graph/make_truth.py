#!/usr/bin/env python3
"""Builds truth/<repo>.json from the raw observations (see README.md).

  make_truth.py --device-results results.json --cmake-dir CMDIR --checkouts CODIR

results.json: written by the device run (fake-nvcc logs of `pip wheel` per repo and invocation).
CMDIR/<name>/compile_commands.json + CMDIR/<name>.log/.rc: local CMake configures.
"""
import argparse, json, os, re, shlex, sys

HERE = os.path.dirname(os.path.abspath(__file__))
NVCC_DEFAULT = ['compute_75', 'sm_75']   # nvcc 13.0 with no arch option: -arch=sm_75

def _codes(s):
    s = s.strip().strip('"').strip("'").strip('[]').strip('"')
    return [c.strip().strip('"') for c in re.split(r'[,\s]+', s) if c.strip().strip('"')]

def archs_of(args):
    """(sorted arch list | None when decided by the GPU, note)."""
    out = set(); arch = None; code = None; seen = False
    i = 0
    while i < len(args):
        a = args[i]
        val = None
        for opt in ('-gencode', '--generate-code'):
            if a == opt and i + 1 < len(args): val = args[i + 1]; i += 1
            elif a.startswith(opt + '='): val = a[len(opt) + 1:]
        if val is not None:
            seen = True
            m = re.match(r'arch=([^,]+),code=(.+)$', val.strip('"'))
            if m:
                for c in _codes(m.group(2)):
                    out.add(c)
            i += 1; continue
        for opt in ('-arch', '--gpu-architecture'):
            if a == opt and i + 1 < len(args): arch = args[i + 1]; i += 1; seen = True
            elif a.startswith(opt + '='): arch = a[len(opt) + 1:]; seen = True
        for opt in ('-code', '--gpu-code'):
            if a == opt and i + 1 < len(args): code = args[i + 1]; i += 1
            elif a.startswith(opt + '='): code = a[len(opt) + 1:]
        i += 1
    if arch is not None:
        if arch in ('native',): return None, 'arch=native'
        if arch.startswith('all'): return None, 'arch=' + arch
        if code:
            out.update(_codes(code))
        else:
            n = arch.split('_', 1)[1]
            out.add('compute_' + n)
            if arch.startswith('sm_'): out.add('sm_' + n)
    if not seen:
        return sorted(NVCC_DEFAULT), 'no arch option: nvcc default'
    return sorted(out), None

def defines_of(args):
    d = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == '-D' and i + 1 < len(args): d.append(args[i + 1]); i += 2; continue
        if a.startswith('-D') and len(a) > 2: d.append(a[2:])
        elif a.startswith('--define-macro='): d.append(a.split('=', 1)[1])
        i += 1
    return sorted(set(d))

SRCX = ('.cu', '.cpp', '.cc', '.cxx', '.c')

def device_invocations(res, repo):
    invs = []
    for r in res:
        if r['repo'] != repo: continue
        srcs = {}
        wd = r['workdir_abs']
        for c in r.get('calls', []):
            args = c['args']
            files = [a for a in args if a.endswith(SRCX) and not a.startswith('-')]
            for f in files:
                p = f if os.path.isabs(f) else os.path.normpath(os.path.join(wd, c['cwd'], f))
                rel = os.path.relpath(p, wd)
                if rel.startswith('..'): continue
                a, note = archs_of(args)
                e = {'archs': a, 'defines': defines_of(args)}
                if note: e['note'] = note
                srcs[rel] = e
        status = 'ok' if r['rc'] == 0 else 'error: ' + last_error(r.get('tail', ''))
        if r['rc'] != 0 and srcs: status = 'ok (compiles logged; ' + status + ')'
        invs.append({'name': r['name'], 'workdir': r['dir'], 'command': 'pip wheel --no-build-isolation --no-deps -v .',
                     'env': r['env'], 'cmake_defines': {}, 'status': status, 'sources': srcs,
                     'nvcc_calls': len(r.get('calls', []))})
    return invs

def last_error(tail):
    pat = re.compile(r'(Error|IndexError|RuntimeError|OSError|error:|urlopen|Unsupported)')
    skip = ('except ImportError', 'clear error message', 'This error originates', 'metadata-generation-failed',
            'subprocess-exited', 'Encountered error', 'finished with status', 'not a git repo', 'ERROR: Failed',
            'legacy-install', 'Failed to build', 'error: subprocess', 'Failed building wheel', 'raise ')
    lines = [l.strip() for l in tail.splitlines() if pat.search(l) and not any(s in l for s in skip)]
    return lines[-1][:300] if lines else 'non-zero exit'

def mark_gpu_decided(invs):
    """'local' (GPU visible, no arch env): a source whose archs differ from the local-nogpu run (or
    that run failed / did not compile it) is decided by the GPU: archs = None."""
    by = {}
    for v in invs: by.setdefault((v['name'], v['workdir']), v)
    for v in invs:
        if v['name'] not in ('local', 'readme:README.md:38'): continue
        ng = by.get((v['name'] + '-nogpu' if v['name'] == 'local' else v['name'] + '+nogpu', v['workdir']))
        for path, e in v['sources'].items():
            other = ng['sources'].get(path) if ng else None
            if other is None or other['archs'] != e['archs']:
                e['observed_on_h200'] = e['archs']; e['archs'] = None
                e['note'] = 'decided by the local GPU (the run without a visible GPU ' + (
                    'gave ' + str(other['archs']) if other else 'did not compile it: ' + (ng['status'] if ng else 'not run')) + ')'

def cmake_invocation(cmdir, name, srcdir, root, inv, defines):
    rc = open(os.path.join(cmdir, name + '.rc')).read().strip()
    log = open(os.path.join(cmdir, name + '.log'), errors='replace').read()
    cc = os.path.join(cmdir, name, 'compile_commands.json')
    err = None
    m = re.search(r'CMake Error[^\n]*\n((?:.*\n){1,4})', log)
    if m: err = ' '.join(x.strip() for x in m.group(1).splitlines() if x.strip())[:300]
    srcs = {}
    if os.path.exists(cc):
        for e in json.load(open(cc)):
            args = e.get('arguments') or shlex.split(e['command'])
            if not args or 'nvcc' not in os.path.basename(args[0]): continue
            f = e['file'] if os.path.isabs(e['file']) else os.path.join(e['directory'], e['file'])
            rel = os.path.relpath(os.path.realpath(f), os.path.realpath(root))
            a, note = archs_of(args[1:])
            d = {'archs': a, 'defines': defines_of(args[1:])}
            if note: d['note'] = note
            srcs[rel] = d
    if rc == '0': status = 'ok'
    elif srcs: status = 'partial: CMake Error: %s (compile_commands.json was still written)' % err
    else: status = 'not configurable: ' + (err or 'cmake exit ' + rc)
    arch_line = re.findall(r'CUDA (?:Compilation )?Architectures?:? *([^\n]+)', log)
    v = {'name': inv, 'workdir': os.path.relpath(srcdir, root) if srcdir != root else '.',
         'command': 'cmake -G Ninja -DCMAKE_EXPORT_COMPILE_COMMANDS=ON' + ''.join(' -D%s=%s' % kv for kv in defines.items()),
         'env': {}, 'cmake_defines': defines, 'status': status, 'sources': srcs}
    if arch_line: v['cmake_says'] = arch_line[0][:200]
    return v

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--device-results', required=True)
    ap.add_argument('--cmake-dir', required=True)
    ap.add_argument('--checkouts', required=True)
    a = ap.parse_args()
    repos = json.load(open(os.path.join(HERE, 'repos.json')))
    res = json.load(open(a.device_results))['results']
    cmake_jobs = [l.split() for l in open(os.path.join(a.cmake_dir, '..', 'cmake_jobs.txt'))]
    extra = {  # second CMake invocations: the -D values the projects' CI / Dockerfiles / docs pass
        'ggml': [('ggml__ci', 'ci:ci/run.sh:44+52', {'GGML_CUDA': 'ON', 'CMAKE_CUDA_ARCHITECTURES': '61;70;75;80;86;89'}),
                 ('ggml__cudaon', 'readme:GGML_CUDA=ON', {'GGML_CUDA': 'ON'})],
        'whisper.cpp': [('whisper.cpp__docker', 'docker:.devops/main-cuda.Dockerfile:30', {'GGML_CUDA': '1', 'CMAKE_CUDA_ARCHITECTURES': '75;80;86;90'})],
        'bitsandbytes': [('bitsandbytes__ci', 'ci:.github/scripts/build-cuda.sh:45', {'COMPUTE_BACKEND': 'cuda', 'COMPUTE_CAPABILITY': '75;80;90;100;110;120;121', 'CMAKE_BUILD_TYPE': 'Release'}),
                         ('bitsandbytes__cuda', 'readme:COMPUTE_BACKEND=cuda', {'COMPUTE_BACKEND': 'cuda'})],
    }
    for e in repos:
        if not e.get('commit'): continue
        name = e['repo'].split('/')[1]
        root = os.path.join(a.checkouts, name)
        invs = device_invocations(res, name)
        mark_gpu_decided(invs)
        for n, src in cmake_jobs:
            if n == name or n.startswith(name + '__'):
                invs.append(cmake_invocation(a.cmake_dir, n, src, root, 'local', {}))
        for n, inv, defs in extra.get(name, []):
            src = root
            invs.append(cmake_invocation(a.cmake_dir, n, src, root, inv, defs))
        if not invs:
            invs.append({'name': 'local', 'status': 'not run: no setup.py build or top-level CMake project run here', 'env': {}, 'cmake_defines': {}, 'sources': {}})
        out = {'repo': e['repo'], 'commit': e['commit'], 'half': e['half'], 'kind': e['kind'], 'invocations': invs}
        json.dump(out, open(os.path.join(HERE, 'truth', name + '.json'), 'w'), indent=1, sort_keys=True)

if __name__ == '__main__':
    main()
