import json, os, subprocess, time, shutil, sys, concurrent.futures as cf
T0 = time.time()
OUT = os.environ['OUT']; BASE = os.path.abspath('build-oracle'); W = '/tmp/bgw'
DEADLINE = float(sys.argv[1]) if len(sys.argv) > 1 else 480; PAR = int(sys.argv[2]) if len(sys.argv) > 2 else 10
JOBTO = int(sys.argv[3]) if len(sys.argv) > 3 else 200
only = sys.argv[4].split(',') if len(sys.argv) > 4 and sys.argv[4] else None
jobs = json.load(open(BASE + '/tools/jobs.json'))
if only: jobs = [j for j in jobs if j['id'] in only or j['repo'] in only]
real = shutil.which('nvcc') or '/usr/local/cuda/bin/nvcc'
REAL = os.path.dirname(os.path.dirname(os.path.realpath(real)))
FK = '/tmp/fakecuda'
shutil.rmtree(FK, ignore_errors=True); os.makedirs(FK + '/bin')
for e in os.listdir(REAL):
    if e != 'bin': os.symlink(os.path.join(REAL, e), os.path.join(FK, e))
for e in os.listdir(REAL + '/bin'):
    if e != 'nvcc': os.symlink(os.path.join(REAL, 'bin', e), os.path.join(FK, 'bin', e))
shutil.copy(BASE + '/tools/nvcc', FK + '/bin/nvcc'); os.chmod(FK + '/bin/nvcc', 0o755)
base_env = {k: v for k, v in os.environ.items() if k not in ('TORCH_CUDA_ARCH_LIST', 'CUDA_VISIBLE_DEVICES', 'CUDA_HOME', 'CUDA_PATH', 'CUDACXX', 'NVCC_APPEND_FLAGS', 'NVCC_PREPEND_FLAGS')}
info = {'real_cuda': REAL, 'removed_env': {k: os.environ.get(k) for k in ('TORCH_CUDA_ARCH_LIST', 'CUDA_VISIBLE_DEVICES', 'CUDA_HOME', 'CUDA_PATH', 'CUDACXX', 'NVCC_APPEND_FLAGS', 'NVCC_PREPEND_FLAGS')},
        'env_keys': sorted(k for k in os.environ if any(s in k for s in ('CUDA', 'TORCH', 'NV', 'ARCH')))}
info['torch'] = subprocess.run(['python3', '-c', 'import torch,sys;print(torch.__version__, torch.version.cuda, torch.cuda.device_count(), torch.cuda.get_arch_list())'], capture_output=True, text=True).stdout
info['nvsmi'] = subprocess.run('nvidia-smi -L', shell=True, capture_output=True, text=True).stdout
os.makedirs(OUT + '/logs', exist_ok=True)
def run(j):
    if time.time() - T0 > DEADLINE: return dict(j, rc=None, skipped='deadline')
    wd = os.path.join(W, j['id']); shutil.rmtree(wd, ignore_errors=True)
    shutil.copytree(os.path.join(BASE, 'repos', j['repo']), wd, symlinks=True)
    log = os.path.join(wd, '.nvcc.jsonl')
    env = dict(base_env); env.update({'CUDA_HOME': FK, 'PATH': FK + '/bin:' + base_env.get('PATH', ''), 'FAKE_NVCC_LOG': log,
                'FAKE_NVCC_REAL': REAL + '/bin/nvcc', 'MAX_JOBS': '4', 'PIP_NO_INDEX': '1', 'PYTHONUNBUFFERED': '1'})
    env.update(j['env'])
    t = time.time()
    cmd = ['timeout', str(JOBTO), 'python3', '-m', 'pip', 'wheel', '--no-build-isolation', '--no-deps', '-v', '.', '-w', wd + '/.whl']
    with open(OUT + '/logs/' + j['id'] + '.log', 'w') as lf:
        lf.write(json.dumps(j) + '\n'); lf.flush()
        p = subprocess.run(cmd, cwd=os.path.join(wd, j['dir']), env=env, stdout=lf, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    calls = [json.loads(l) for l in open(log)] if os.path.exists(log) else []
    for c in calls: c['cwd'] = os.path.relpath(c['cwd'], wd)
    tail = open(OUT + '/logs/' + j['id'] + '.log', errors='replace').read()[-4000:]
    return dict(j, rc=p.returncode, secs=round(time.time() - t, 1), calls=calls, workdir_abs=wd, tail=tail)
res = []
with cf.ThreadPoolExecutor(PAR) as ex:
    for r in ex.map(run, jobs):
        res.append(r); print(r['id'], r['repo'], r['dir'], r['name'], r.get('rc'), r.get('secs'), len(r.get('calls', [])), flush=True)
json.dump({'info': info, 'results': res}, open(OUT + '/results.json', 'w'))
subprocess.run(['tar', '-czf', OUT + '/logs.tgz', '-C', OUT, 'logs']); shutil.rmtree(OUT + '/logs')
print('total', round(time.time() - T0, 1))
