#!/usr/bin/env python3
"""Packs a cudalint binary into a wheel, offline, with the standard library only.

    python3 scripts/build-wheel.py BINARY [--out dist/]

Writes dist/cudalint-<version>-py3-none-<platform>.whl and prints its path. The binary goes to
`cudalint-<version>.data/scripts/cudalint`, so pip installs it into the environment's bin/ (on
PATH in an activated venv, as ruff's wheels do); a small `cudalint` package adds
`python -m cudalint` and `cudalint.find_cudalint_bin()`.

Everything is read from the binary itself: the version from `BINARY --version` (git describe,
turned into PEP 440: `0.1.0-3-g1a2b3c4-dirty` -> `0.1.0.post3+g1a2b3c4.dirty`), the repository
URL from the SARIF report it writes (`informationUri`), and the platform tag from its ELF headers:

- no program interpreter and no shared libraries (fully static): `manylinux_2_17_x86_64`;
- dynamic, needing only libraries that the manylinux policy lets a wheel assume (libc, libm,
  libpthread, libdl, librt, libgcc_s, libstdc++, ...): `manylinux_2_<N>_x86_64`, N the newest
  GLIBC_2.N symbol version it imports (`objdump -T`);
- dynamic and needing anything else (libz.so.1, libzstd.so.1, ...): `linux_x86_64`, the honest
  tag for "runs where these libraries are" (pip installs it; PyPI refuses it), with the reason
  printed.

The wheel is reproducible: entries sorted, timestamps from SOURCE_DATE_EPOCH (default 1980-01-01).
"""
import argparse
import base64
import csv
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import zipfile

# PEP 599/600: the libraries a manylinux wheel may link against without bundling them.
MANYLINUX_LIBS = {
    "libgcc_s.so.1", "libstdc++.so.6", "libm.so.6", "libdl.so.2", "librt.so.1", "libc.so.6",
    "libnsl.so.1", "libutil.so.1", "libpthread.so.0", "libresolv.so.2", "ld-linux-x86-64.so.2",
    "libX11.so.6", "libXext.so.6", "libXrender.so.1", "libICE.so.6", "libSM.so.6", "libGL.so.1",
    "libgobject-2.0.so.0", "libgthread-2.0.so.0", "libglib-2.0.so.0",
}
ARCHES = {"x86-64": "x86_64", "advanced micro devices x86-64": "x86_64", "aarch64": "aarch64"}

INIT_PY = '''"""cudalint: a static analyzer for CUDA/PyTorch builds (the binary, packaged)."""
import os
import sys
import sysconfig

__version__ = "{version}"


def find_cudalint_bin() -> str:
    """The cudalint executable this package installed."""
    exe = "cudalint" + (sysconfig.get_config_var("EXE") or "")
    for scheme in (None, "posix_user" if os.name == "posix" else "nt_user"):
        try:
            path = sysconfig.get_path("scripts", scheme) if scheme else sysconfig.get_path("scripts")
        except KeyError:
            continue
        candidate = os.path.join(path, exe)
        if os.path.isfile(candidate):
            return candidate
    candidate = os.path.join(os.path.dirname(sys.executable), exe)
    if os.path.isfile(candidate):
        return candidate
    raise FileNotFoundError(exe)
'''
MAIN_PY = '''import os
import sys

from cudalint import find_cudalint_bin

if __name__ == "__main__":
    binary = find_cudalint_bin()
    if sys.platform == "win32":
        import subprocess
        sys.exit(subprocess.call([binary, *sys.argv[1:]]))
    os.execvp(binary, [binary, *sys.argv[1:]])
'''


def pep440(described: str) -> str:
    """`git describe`-style cudalint version -> PEP 440."""
    v = described.strip().removeprefix("v")
    m = re.fullmatch(r"(\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?)(?:-(\d+)-g([0-9a-f]+))?(-dirty)?", v)
    if not m:
        raise SystemExit(f"build-wheel: version `{described}` is not X.Y.Z[-N-gHASH][-dirty]")
    public, distance, commit, dirty = m.groups()
    out = public + (f".post{distance}" if distance else "")
    local = ".".join(p for p in ((f"g{commit}" if commit else ""), ("dirty" if dirty else "")) if p)
    return out + (f"+{local}" if local else "")


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, check=True, **kw).stdout


def read_identity(binary):
    out = run([binary, "--version"]).strip()
    m = re.fullmatch(r"cudalint (\S+) \((\S+)\)", out)
    if not m:
        raise SystemExit(f"build-wheel: `{binary} --version` printed {out!r}, not `cudalint VERSION (COMMIT)`")
    with tempfile.TemporaryDirectory() as empty:
        sarif = json.loads(run([binary, "check", "--no-cache", "--exit-zero", "--format", "sarif", "."], cwd=empty))
    url = sarif["runs"][0]["tool"]["driver"].get("informationUri", "")
    return m.group(1), m.group(2), url


def platform_tag(binary):
    """(tag, reason) from the binary's ELF headers."""
    header = run(["readelf", "-h", binary])
    machine = re.search(r"Machine:\s*(.+)", header).group(1).strip().lower()
    arch = ARCHES.get(machine)
    if not arch:
        raise SystemExit(f"build-wheel: unknown machine `{machine}`")
    interp = "Requesting program interpreter" in run(["readelf", "-l", binary])
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", run(["readelf", "-d", binary]))
    if not interp and not needed:
        return f"manylinux_2_17_{arch}", "statically linked: no interpreter, no shared libraries"
    versions = [tuple(map(int, v.split("."))) for v in re.findall(r"GLIBC_(\d+\.\d+)", run(["objdump", "-T", binary]))]
    glibc = max(versions, default=(2, 17))
    glibc = max(glibc, (2, 17))
    foreign = sorted(set(needed) - MANYLINUX_LIBS)
    if foreign:
        return f"linux_{arch}", (f"dynamic, needs {', '.join(foreign)}, which manylinux does not allow a wheel to "
                                 f"assume (and GLIBC_{glibc[0]}.{glibc[1]})")
    return (f"manylinux_{glibc[0]}_{glibc[1]}_{arch}",
            f"dynamic, needs only {', '.join(needed)}; newest symbol GLIBC_{glibc[0]}.{glibc[1]}")


def record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binary")
    ap.add_argument("--out", default="dist")
    ap.add_argument("--readme", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "README.md"))
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    described, commit, url = read_identity(binary)
    version = pep440(described)
    tag, reason = platform_tag(binary)
    name = "cudalint"
    dist_info = f"{name}-{version}.dist-info"
    data_dir = f"{name}-{version}.data"
    wheel_name = f"{name}-{version}-py3-none-{tag}.whl"

    description = ""
    if os.path.isfile(a.readme):
        with open(a.readme, encoding="utf-8") as f:
            description = f.read()
    metadata = [
        "Metadata-Version: 2.1",
        f"Name: {name}",
        f"Version: {version}",
        "Summary: A fast static analyzer for CUDA/PyTorch builds (Dockerfiles, setup.py, CMake, .cu)",
        "Keywords: cuda,pytorch,linter,static-analysis,dockerfile,cmake",
        "Classifier: Programming Language :: C++",
        "Classifier: Topic :: Software Development :: Quality Assurance",
        "Classifier: Operating System :: POSIX :: Linux",
        "Requires-Python: >=3.7",
    ]
    license_path = os.path.join(os.path.dirname(os.path.abspath(a.readme)), "LICENSE")
    license_text = b""
    if os.path.isfile(license_path):
        with open(license_path, "rb") as f:
            license_text = f.read()
        first = license_text.decode("utf-8", "replace").strip().splitlines()[0].strip() if license_text.strip() else ""
        metadata.append("License: MIT" if first.startswith("MIT") else f"License: {first}")
        metadata.append("License-File: LICENSE")
    if url:
        metadata += [f"Home-page: {url}", f"Project-URL: Repository, {url}", f"Project-URL: Source, {url}/tree/{commit.removesuffix('-dirty')}"]
    if description:
        metadata.append("Description-Content-Type: text/markdown")
    metadata_text = "\n".join(metadata) + "\n\n" + description
    wheel_text = ("Wheel-Version: 1.0\nGenerator: cudalint scripts/build-wheel.py\nRoot-Is-Purelib: false\n"
                  + "".join(f"Tag: py3-none-{t}\n" for t in tag.split(".")))  # one line per tag of a tag set

    with open(binary, "rb") as f:
        exe = f.read()
    files = [  # (archive name, bytes, unix mode)
        (f"{name}/__init__.py", INIT_PY.format(version=version).encode(), 0o644),
        (f"{name}/__main__.py", MAIN_PY.encode(), 0o644),
        (f"{data_dir}/scripts/cudalint", exe, 0o755),
        (f"{dist_info}/METADATA", metadata_text.encode(), 0o644),
        (f"{dist_info}/WHEEL", wheel_text.encode(), 0o644),
    ]
    if license_text:
        files.insert(-2, (f"{dist_info}/LICENSE", license_text, 0o644))
    record = io.StringIO()
    w = csv.writer(record, lineterminator="\n")
    for arc, data, _ in files:
        w.writerow([arc, record_hash(data), len(data)])
    w.writerow([f"{dist_info}/RECORD", "", ""])
    files.append((f"{dist_info}/RECORD", record.getvalue().encode(), 0o644))

    epoch = max(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")), 315532800)
    stamp = time.gmtime(epoch)[:6]
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, wheel_name)
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for arc, data, mode in files:  # dist-info last, RECORD at the very end (PEP 427 recommends)
            info = zipfile.ZipInfo(arc, date_time=stamp)
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data, compresslevel=9)
    os.replace(tmp, path)
    print(f"build-wheel: cudalint {described} ({commit}) -> version {version}, tag {tag}: {reason}", file=sys.stderr)
    print(path)


if __name__ == "__main__":
    main()
