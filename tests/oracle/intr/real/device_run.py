#!/usr/bin/env python3
"""Compiles the real files of files.json with nvcc, one target at a time, on the device machine.

    python3 tests/oracle/intr/real/device_run.py [--deadline 520] [--resume verdicts.json]

Needs build-oracle-real/carry.tgz (mkcarry.py), nvcc and torch. Steps:
1. setup.py repositories are built with a logging nvcc in place of the real one (the build-graph
   oracle's tools/nvcc: it records each call's arguments and writes an empty object), with
   TORCH_CUDA_ARCH_LIST=8.0;9.0+PTX, so each source's real command line (torch's flags, the
   project's defines and include directories) is known; a CMake source's command comes from files.json.
2. Each source is compiled for every target with that command, its arch options, `-c` and output
   replaced by `-cubin -arch=<target> -o <tmp>`; the exit status and the first error lines are kept.
   `nvcc -M` with the same flags lists the headers it includes.
Results go to $OUT/verdicts.json; with --resume, verdicts already there are kept and not re-run.
"""
import argparse, concurrent.futures as cf, json, os, re, shlex, shutil, subprocess, sys, tarfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..', '..', '..'))
TARGETS = ['sm_75', 'sm_80', 'sm_89', 'sm_90', 'sm_90a', 'sm_100', 'sm_100a', 'sm_120a']
ARCH_OPTS_VAL = {'-gencode', '--generate-code', '-arch', '--gpu-architecture', '-code', '--gpu-code',
                 '-o', '--output-file', '-MF', '--dependency-output', '--threads', '-t', '-MT', '-MQ',
                 '-odir', '--output-directory'}
ARCH_OPTS = {'-c', '--compile', '-MD', '-MMD', '--generate-dependencies-with-compile',
             '--generate-nonsystem-dependencies-with-compile', '-dc', '--device-c', '-x', 'cu'}


def strip(args):
    out, i = [], 0
    while i < len(args):
        a = args[i]
        if a in ARCH_OPTS_VAL:
            i += 2
            continue
        if any(a.startswith(o + '=') for o in ARCH_OPTS_VAL) or a in ARCH_OPTS:
            i += 1
            continue
        if a.startswith('-o') and not a.startswith('-opt') and len(a) > 2:
            i += 1
            continue
        out.append(a)
        i += 1
    return out


def anonymise(text, src, torch_inc):
    text = text.replace(src, '@SRC@')
    return text.replace(torch_inc, '@TORCH_INCLUDE@') if torch_inc else text


def fake_builds(work, repos, out):
    real = shutil.which('nvcc') or '/usr/local/cuda/bin/nvcc'
    cuda = os.path.dirname(os.path.dirname(os.path.realpath(real)))
    fk = '/tmp/fakecuda'
    shutil.rmtree(fk, ignore_errors=True)
    os.makedirs(fk + '/bin')
    for e in os.listdir(cuda):
        if e != 'bin':
            os.symlink(os.path.join(cuda, e), os.path.join(fk, e))
    for e in os.listdir(cuda + '/bin'):
        if e != 'nvcc':
            os.symlink(os.path.join(cuda, 'bin', e), os.path.join(fk, 'bin', e))
    shutil.copy(os.path.join(ROOT, 'tests/oracle/build_graph/tools/nvcc'), fk + '/bin/nvcc')
    os.chmod(fk + '/bin/nvcc', 0o755)
    env0 = {k: v for k, v in os.environ.items() if k not in (
        'TORCH_CUDA_ARCH_LIST', 'CUDA_HOME', 'CUDA_PATH', 'CUDACXX', 'NVCC_APPEND_FLAGS', 'NVCC_PREPEND_FLAGS')}

    def one(name):
        wd = os.path.join(work, name)
        log = os.path.join(work, name + '.nvcc.jsonl')
        env = dict(env0, CUDA_HOME=fk, PATH=fk + '/bin:' + env0.get('PATH', ''), FAKE_NVCC_LOG=log,
                   FAKE_NVCC_REAL=cuda + '/bin/nvcc', MAX_JOBS=str(os.cpu_count()), PIP_NO_INDEX='1',
                   TORCH_CUDA_ARCH_LIST='8.0;9.0+PTX')
        with open(os.path.join(out, name + '.build.log'), 'w') as lf:
            p = subprocess.run(['timeout', '200', sys.executable, '-m', 'pip', 'wheel', '--no-build-isolation',
                                '--no-deps', '-v', '.', '-w', os.path.join(work, name + '.whl')],
                               cwd=wd, env=env, stdout=lf, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        calls = [json.loads(l) for l in open(log)] if os.path.exists(log) else []
        return name, p.returncode, calls, cuda

    with cf.ThreadPoolExecutor(len(repos) or 1) as ex:
        return list(ex.map(one, repos))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--deadline', type=float, default=520)
    ap.add_argument('--resume')
    ap.add_argument('--jobs', type=int, default=os.cpu_count())
    a = ap.parse_args()
    t0 = time.time()
    out = os.environ.get('OUT', '/tmp/out')
    os.makedirs(out, exist_ok=True)
    work = '/tmp/real'
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    with tarfile.open(os.path.join(ROOT, 'build-oracle-real/carry.tgz')) as t:
        t.extractall(work)
    work = os.path.join(work, 'repos')
    files = json.load(open(os.path.join(HERE, 'files.json')))['files']
    prior = {}
    if a.resume:
        for f in json.load(open(a.resume))['files']:
            prior[(f['name'], f['path'])] = f
    nvcc = shutil.which('nvcc') or '/usr/local/cuda/bin/nvcc'
    torch_inc = subprocess.run([sys.executable, '-c', 'import torch.utils.cpp_extension as c;print(c.include_paths()[0])'],
                               capture_output=True, text=True).stdout.strip()
    info = {'nvcc': subprocess.run([nvcc, '--version'], capture_output=True, text=True).stdout.strip().splitlines()[-1],
            'torch': subprocess.run([sys.executable, '-c', 'import torch;print(torch.__version__)'], capture_output=True,
                                    text=True).stdout.strip(), 'cores': os.cpu_count(), 'targets': TARGETS}
    need = sorted({f['name'] for f in files if f['kind'] == 'setup.py'
                   and not prior.get((f['name'], f['path']), {}).get('command')})
    results = {}
    for f in files:
        old = prior.get((f['name'], f['path']), {})
        r = {'name': f['name'], 'path': f['path'], 'verdicts': dict(old.get('verdicts', {}))}
        for k in ('command', 'cwd', 'headers'):
            if k in old:
                r[k] = old[k]
        results[(f['name'], f['path'])] = r

    def job(f, commands):
        key = (f['name'], f['path'])
        src = os.path.join(work, f['name'])
        r = results[key]
        if r.get('command'):
            cwd = os.path.join(src, r['cwd']) if r['cwd'] != '@BUILD@' else os.path.join('/tmp/cmbuild', f['name'])
            os.makedirs(cwd, exist_ok=True)
            args = shlex.split(r['command'].replace('@SRC@', src).replace('@TORCH_INCLUDE@', torch_inc))
        elif f['kind'] == 'cmake':
            cwd = os.path.join('/tmp/cmbuild', f['name'])
            os.makedirs(cwd, exist_ok=True)
            args = strip(shlex.split(f['command'].replace('@SRC@', src).replace('@BUILD@', cwd))[1:])
        elif key in commands:
            cwd, args = commands[key]
        else:
            return None
        r['command'] = anonymise(' '.join(shlex.quote(x) for x in args), src, torch_inc)
        r['cwd'] = os.path.relpath(cwd, src) if cwd.startswith(src) else '@BUILD@'
        return key, cwd, args

    def run(kind, t, key, cwd, args):
        left = a.deadline - (time.time() - t0)
        if left < 10:
            return None
        try:
            if kind == 'deps':
                p = subprocess.run([nvcc, '-M'] + args, cwd=cwd, capture_output=True, text=True, timeout=left)
                return p.stdout if p.returncode == 0 else None
            tmp = '/tmp/cubin/%d_%s.cubin' % (abs(hash(key)), t)
            s = time.time()
            p = subprocess.run([nvcc, '-cubin', '-arch=' + t, '-o', tmp] + args, cwd=cwd, capture_output=True,
                               text=True, timeout=left)
        except subprocess.TimeoutExpired:
            return None
        errs = [anonymise(l, os.path.join(work, key[0]), torch_inc)
                for l in (p.stderr + p.stdout).splitlines() if 'error' in l.lower()][:6]
        return {'ok': p.returncode == 0, 'secs': round(time.time() - s, 1), 'errors': errs}

    def write():
        json.dump({'info': dict(info, secs=round(time.time() - t0, 1)),
                   'files': [results[(f['name'], f['path'])] for f in files]},
                  open(os.path.join(out, 'verdicts.json'), 'w'), indent=1)

    os.makedirs('/tmp/cubin', exist_ok=True)
    pool = cf.ThreadPoolExecutor(a.jobs)
    futures = {}

    def submit(jobs):
        # -M first (header lists), then every target, sm_80 first: a source that fails everywhere for
        # want of a header shows it early.
        for kind, t in [('deps', None)] + [('t', x) for x in ['sm_80'] + [y for y in TARGETS if y != 'sm_80']]:
            for key, cwd, args in jobs:
                r = results[key]
                if (kind == 'deps' and 'headers' not in r) or (kind == 't' and t not in r['verdicts']):
                    futures[pool.submit(run, kind, t, key, cwd, args)] = (kind, t, key, cwd)

    # Sources whose command is known are compiled while the other projects are built.
    submit([j for j in (job(f, {}) for f in files if results[(f['name'], f['path'])].get('command')
                        or f['kind'] == 'cmake') if j])
    commands = {}
    for name, rc, calls, _ in fake_builds(work, need, out):
        print('fake build', name, rc, len(calls), round(time.time() - t0), flush=True)
        for c in calls:
            for s in c['args']:
                if s.endswith('.cu') and not s.startswith('-'):
                    p = os.path.relpath(os.path.normpath(os.path.join(c['cwd'], s)), os.path.join(work, name))
                    commands.setdefault((name, p), (c['cwd'], strip(c['args'])))
    new = [j for j in (job(f, commands) for f in files if f['name'] in need) if j]
    submit(sorted(new, key=lambda j: j[0][0] == 'ao'))  # CUTLASS sources are the slowest: last
    for f in files:
        if f['name'] in need and (f['name'], f['path']) not in {j[0] for j in new}:
            results[(f['name'], f['path'])]['missing'] = 'no command recorded'
    done, last = 0, time.time()
    for fut in cf.as_completed(futures):
        kind, t, key, cwd = futures[fut]
        v = fut.result()
        if v is None:
            continue
        if kind == 'deps':
            root = os.path.join(work, key[0])
            deps = [os.path.relpath(os.path.normpath(os.path.join(cwd, d)), root)
                    for d in v.replace('\\\n', ' ').split()[1:] if not d.endswith(':')]
            results[key]['headers'] = sorted(d for d in deps if not d.startswith('..') and d != key[1])
        else:
            results[key]['verdicts'][t] = v
            done += 1
        if time.time() - last > 20:
            write()
            last = time.time()
    pool.shutdown()
    info['compiles_this_run'] = done
    write()
    print('compiles', done, 'of', sum(k == 't' for k, _, _, _ in futures.values()), 'secs', round(time.time() - t0, 1))


if __name__ == '__main__':
    main()
