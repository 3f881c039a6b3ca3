"""PEP 517 build backend for `pip install .` from a cudalint checkout (pyproject.toml names it
with `backend-path = ["integrations/python"]`; it needs no package from an index).

build_wheel builds cudalint from source, as scripts/build.sh does, into build-wheel/ (Release,
no tests: `cmake --build --target cudalint`, which takes the full build time: 10-20 minutes on
2 cores, and needs the build dependencies of README.md's "Build from source"), strips a copy of
the binary and packs it with scripts/build-wheel.py, the same packer as scripts/release.sh.

A prebuilt wheel is used instead of building when one is offered, which is how the pre-commit
hook installs offline and in seconds (pre-commit runs `pip install .` in its clone of this
repository):
- CUDALINT_WHEEL=/path/to/cudalint-*.whl, or
- a `cudalint-<X.Y.Z>[.postN+...]-*.whl` for this checkout's project VERSION X.Y.Z and a platform
  this machine runs, in a local directory of PIP_FIND_LINKS (the newest such file).
CUDALINT_BUILD_FROM_SOURCE=1 always builds. Environment: CUDALINT_BUILD_JOBS (default: all
cores), CUDALINT_BUILD_DIR (default: build-wheel; an existing build directory keeps its own
settings, and only its `cudalint` target is brought up to date), CMAKE_ARGS (extra configure
arguments).
"""
import glob
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def _log(msg):
    print(f"cudalint build backend: {msg}", file=sys.stderr, flush=True)


def _project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(cudalint\s+VERSION\s+([0-9.]+)", f.read())
    return m.group(1) if m else None


def _glibc():
    try:
        name, ver = os.confstr("CS_GNU_LIBC_VERSION").split()
        return tuple(int(x) for x in ver.split(".")[:2]) if name == "glibc" else None
    except (ValueError, OSError, AttributeError):
        return None


def _runs_here(wheel_file):
    """Whether a wheel's platform tags include one this machine runs (a tag set: any of them)."""
    m = re.fullmatch(r"[^-]+-[^-]+-[^-]+-[^-]+-(.+)\.whl", os.path.basename(wheel_file))
    if not m:
        return False
    arch = platform.machine()
    for tag in m.group(1).split("."):
        if tag == "any" or tag == f"linux_{arch}":
            return sys.platform.startswith("linux")
        t = re.fullmatch(r"manylinux_(\d+)_(\d+)_(\w+)", tag)
        if t and t.group(3) == arch and _glibc() and _glibc() >= (int(t.group(1)), int(t.group(2))):
            return True
    return False


def _prebuilt():
    if os.environ.get("CUDALINT_BUILD_FROM_SOURCE") == "1":
        return None
    explicit = os.environ.get("CUDALINT_WHEEL")
    if explicit:
        if not os.path.isfile(explicit):
            raise RuntimeError(f"CUDALINT_WHEEL={explicit} is not a file")
        return explicit
    version = _project_version()
    found = []
    for d in os.environ.get("PIP_FIND_LINKS", "").split():
        d = d.removeprefix("file://")
        if not os.path.isdir(d):
            continue
        for w in glob.glob(os.path.join(d, "cudalint-*.whl")):
            v = os.path.basename(w).split("-")[1]
            if version and re.match(re.escape(version) + r"(?:$|\.post|\+)", v) and _runs_here(w):
                found.append(w)
    return max(found, key=os.path.getmtime) if found else None


def _build_from_source(wheel_directory):
    build = os.path.abspath(os.environ.get("CUDALINT_BUILD_DIR") or os.path.join(ROOT, "build-wheel"))
    jobs = os.environ.get("CUDALINT_BUILD_JOBS") or str(os.cpu_count() or 1)
    for tool in ("cmake", "ninja", "readelf", "objdump"):
        if not shutil.which(tool):
            raise RuntimeError(f"building cudalint from source needs `{tool}` (README.md: Build from source)")
    configure = ["cmake", "-S", ROOT, "-B", build, *shlex.split(os.environ.get("CMAKE_ARGS", ""))]
    if not os.path.isfile(os.path.join(build, "CMakeCache.txt")):  # an existing build keeps its settings
        configure += ["-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release", "-DCUDALINT_BUILD_TESTS=OFF"]
    _log(f"building from source in {build} ({jobs} jobs; this takes the full build time)")
    subprocess.run(configure, check=True, stdout=sys.stderr)
    subprocess.run(["cmake", "--build", build, "--target", "cudalint", "-j", jobs], check=True, stdout=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, "cudalint")
        shutil.copy2(os.path.join(build, "cudalint"), binary)
        strip = shutil.which("strip")
        if strip:
            subprocess.run([strip, "--strip-all", binary], check=True)
        out = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "build-wheel.py"), binary,
                              "--out", wheel_directory], check=True, stdout=subprocess.PIPE, text=True).stdout
    return os.path.basename(out.strip().splitlines()[-1])


def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    os.makedirs(wheel_directory, exist_ok=True)
    prebuilt = _prebuilt()
    if prebuilt:
        _log(f"using the prebuilt {prebuilt} (CUDALINT_BUILD_FROM_SOURCE=1 builds instead)")
        shutil.copy2(prebuilt, os.path.join(wheel_directory, os.path.basename(prebuilt)))
        return os.path.basename(prebuilt)
    return _build_from_source(wheel_directory)
