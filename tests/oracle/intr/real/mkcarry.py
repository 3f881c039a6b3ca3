#!/usr/bin/env python3
"""Packs what device_run.py compiles: the selected repositories' sources, headers and build files
(contents kept, unlike the build-graph oracle's carry), plus the headers of two git submodules the
snapshots lack (gsplat's glm, from Debian's libglm-dev .deb; torchao's cutlass, from a CUTLASS
checkout).

    python3 mkcarry.py --checkouts /work/bg-repos/co --glm-deb libglm-dev_*.deb \
        --cutlass /work/bg-repos/co/cutlass --out build-oracle-real/carry.tgz
"""
import argparse, json, os, subprocess, tarfile, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KEEP = {'.cu', '.cuh', '.cpp', '.cc', '.cxx', '.c', '.h', '.hpp', '.hh', '.hxx', '.inl', '.inc', '.tcc',
        '.ipp', '.tpp', '.py', '.toml', '.cfg', '.txt', '.in', '.cmake', '.json'}
SKIP_DIRS = {'.git', 'docs', 'doc', 'benchmarks', 'benchmark', 'examples', 'assets', 'media', 'notebooks',
             'tutorials', 'data', '.github'}


def add_tree(tar, src, arc, only_dirs=None):
    for root, dirs, files in os.walk(src):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        rel = os.path.relpath(root, src)
        if only_dirs is not None and rel != '.' and not any(
                rel == d or rel.startswith(d + '/') or d.startswith(rel + '/') for d in only_dirs):
            continue
        for f in sorted(files):
            p = os.path.join(root, f)
            # Sources and build files up to 2 MiB; any other small file (README, LICENSE, config.yaml:
            # setup.py scripts read them).
            size = os.path.getsize(p) if not os.path.islink(p) else None
            if size is None or size > (2 << 20 if os.path.splitext(f)[1] in KEEP else 64 << 10):
                continue
            if only_dirs is not None and not any((os.path.join(rel, f)).startswith(d + '/') for d in only_dirs):
                continue
            tar.add(p, arcname=os.path.normpath(os.path.join(arc, rel, f)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--checkouts', required=True)
    ap.add_argument('--glm-deb', required=True)
    ap.add_argument('--cutlass', required=True)
    ap.add_argument('--out', required=True)
    a = ap.parse_args()
    files = json.load(open(os.path.join(HERE, 'files.json')))['files']
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with tarfile.open(a.out, 'w:gz') as tar:
        for name in sorted({f['name'] for f in files}):
            src = os.path.join(a.checkouts, name)
            if any(f['kind'] == 'cmake' for f in files if f['name'] == name):
                # CMake samples: each selected source's directory, its parent's, and the shared utils.
                dirs = set()
                for f in files:
                    if f['name'] == name:
                        d = os.path.dirname(f['path'])
                        dirs |= {d, os.path.dirname(d)}
                        for tok in f['command'].split():
                            if tok.startswith('-I@SRC@/'):
                                dirs.add(os.path.normpath(tok[len('-I@SRC@/'):]))
                add_tree(tar, src, 'repos/' + name, sorted(x for x in dirs if x))
            else:
                add_tree(tar, src, 'repos/' + name)
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(['dpkg-deb', '-x', a.glm_deb, tmp], check=True)
            add_tree(tar, os.path.join(tmp, 'usr/include/glm'),
                     'repos/gsplat/gsplat/cuda/csrc/third_party/glm/glm')
        add_tree(tar, os.path.join(a.cutlass, 'include'), 'repos/ao/third_party/cutlass/include')
        tar.add(os.path.join(a.cutlass, 'LICENSE.txt'), arcname='repos/ao/third_party/cutlass/LICENSE.txt')
        add_tree(tar, os.path.join(a.cutlass, 'tools/util/include'),
                 'repos/ao/third_party/cutlass/tools/util/include')
    print(a.out, os.path.getsize(a.out))


if __name__ == '__main__':
    main()
