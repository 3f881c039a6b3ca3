#!/usr/bin/env python3
"""Generates data/cuda_features.tsv: CUDA device features -> minimum sm, arch-specific target,
toolkit range, source.

    python3 scripts/gen-cuda-features.py [--cuda-include /usr/local/cuda/include] > data/cuda_features.tsv

Three sources, each row citing where its fact comes from:
1. Device functions and types of the toolkit headers. Every `#if`/`#elif` condition is
   evaluated as nvcc's device pass would for each target arch (`__CUDA_ARCH__`, the
   `__CUDA_ARCH_FEAT_SMxx_ALL` macros of `a` targets); a name declared for some arches only gets
   the lowest of them as its minimum (overloads share a name, so the minimum over all of them:
   a name never becomes stricter than its most permissive overload). Names declared only below
   some arch are `deprecated` (removed) from that arch on.
2. PTX instructions that CCCL's generated `cuda::ptx` wrappers document with
   `// <instruction>; // PTX ISA NN, SM_XX[a]`: the minimum sm of all forms sharing a
   mnemonic prefix, arch-specific when every form needs an `a` target.
3. A short, hand-written list for instructions CCCL does not wrap (mma.sync, ldmatrix, wgmma,
   setmaxnreg, cvt to fp8, ...), citing the PTX ISA's target-ISA notes.
The toolkit range starts at the CUDA release of the PTX ISA version when known, else at the
toolkit read; rows hold up to now (`-`).
"""
import argparse
import os
import re
import sys

ARCHES = [50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90, 100, 103, 110, 120, 121]
A_TARGETS = [90, 100, 103, 110, 120, 121]

# PTX ISA version -> first CUDA release that ships it (PTX ISA "Release History" table).
PTX_TO_CUDA = {10: "1.0", 20: "3.0", 30: "4.0", 40: "5.0", 50: "7.0", 60: "9.0", 61: "9.1", 62: "9.2", 63: "10.0",
               64: "10.1", 65: "10.2", 70: "11.0", 71: "11.1", 72: "11.2", 73: "11.3", 74: "11.4", 75: "11.5",
               76: "11.6", 77: "11.7", 78: "11.8", 80: "12.0", 81: "12.1", 82: "12.2", 83: "12.3", 84: "12.4",
               85: "12.5", 86: "12.8", 87: "12.9", 88: "13.0"}

HEADERS = ["sm_20_intrinsics.h", "sm_20_atomic_functions.h", "sm_30_intrinsics.h", "sm_32_intrinsics.h",
           "sm_32_atomic_functions.h", "sm_35_intrinsics.h", "sm_60_atomic_functions.h", "sm_61_intrinsics.h",
           "crt/sm_70_rt.h", "crt/sm_80_rt.h", "crt/sm_90_rt.h", "crt/sm_100_rt.h", "cuda_fp16.h", "cuda_bf16.h",
           "cuda_fp8.h", "cuda_fp6.h", "cuda_fp4.h", "crt/mma.h", "crt/device_functions.h",
           "device_atomic_functions.h", "cuda_fp16.hpp", "cuda_bf16.hpp", "cuda_fp8.hpp", "crt/sm_70_rt.hpp",
           "crt/sm_80_rt.hpp", "crt/sm_90_rt.hpp", "crt/sm_100_rt.hpp", "sm_30_intrinsics.hpp", "sm_32_intrinsics.hpp",
           "sm_61_intrinsics.hpp", "sm_60_atomic_functions.hpp", "crt/mma.hpp", "sm_20_intrinsics.hpp",
           "sm_20_atomic_functions.hpp", "sm_32_atomic_functions.hpp", "device_atomic_functions.hpp"]

DECL_RE = re.compile(r"^\s*(?:extern\s+__device__|__[A-Z0-9_]+DECL__|static\s+__device__|__device__|__CUDA_FP16_DECL__|__CUDA_BF16_DECL__|"
                     r"__CUDA_HOSTDEVICE_FP8_DECL__|__CUDA_FP8_DECL__|__CUDA_HOSTDEVICE_BF16_DECL__|__CUDA_HOSTDEVICE_FP16_DECL__)"
                     r"[^;{(]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def eval_cond(expr, env):
    """Evaluates a preprocessor condition; None when it uses something unknown."""
    e = re.sub(r"//.*|/\*.*?\*/", "", expr)
    e = re.sub(r"defined\s*\(\s*(\w+)\s*\)", lambda m: "1" if m.group(1) in env else "0", e)
    e = re.sub(r"defined\s+(\w+)", lambda m: "1" if m.group(1) in env else "0", e)

    def ident(m):
        name = m.group(0)
        if name in env:
            return str(env[name])
        if re.fullmatch(r"\d+[uUlL]*", name):
            return re.sub(r"[uUlL]+$", "", name)
        return "0"  # an undefined macro is 0 in #if

    e = re.sub(r"\b[A-Za-z_]\w*\b|\b\d+[uUlL]*\b", ident, e)
    e = e.replace("&&", " and ").replace("||", " or ")
    e = re.sub(r"!(?!=)", " not ", e)
    try:
        return bool(eval(e, {"__builtins__": {}}))
    except Exception:
        return None


def active_names(path, env):
    """Names declared in the lines of `path` that are active under `env` (no includes followed)."""
    names = {}
    stack = []  # (this branch active, any branch taken, parent active)
    active = True
    lines = open(path, errors="replace").read().replace("\\\n", " ").split("\n")
    for no, line in enumerate(lines, 1):
        s = line.strip()
        m = re.match(r"#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)", s)
        if m:
            kw, rest = m.group(1), m.group(2)
            if kw in ("if", "ifdef", "ifndef"):
                if kw == "if":
                    v = eval_cond(rest, env)
                else:
                    v = (rest.strip() in env) == (kw == "ifdef")
                v = bool(v)  # unknown conditions count as false (conservative: fewer names)
                stack.append([active and v, v, active])
                active = active and v
            elif kw == "elif" and stack:
                top = stack[-1]
                v = False if top[1] else bool(eval_cond(rest, env))
                top[1] = top[1] or v
                top[0] = top[2] and v
                active = top[0]
            elif kw == "else" and stack:
                top = stack[-1]
                top[0] = top[2] and not top[1]
                top[1] = True
                active = top[0]
            elif kw == "endif" and stack:
                stack.pop()
                active = stack[-1][0] if stack else True
            continue
        if not active:
            continue
        d = DECL_RE.match(re.sub(r"__DEPRECATED__\((?:[^()]|\([^()]*\))*\)", "", line))
        if d and not d.group(1).startswith("operator"):
            names.setdefault(d.group(1), no)
    return names


def env_for(arch, a_target):
    env = {"__CUDACC__": 1, "__cplusplus": 201703, "__CUDA_ARCH__": arch * 10, "__NVCC__": 1,
           "__CUDACC_VER_MAJOR__": 13, "__CUDA_ARCH_LIST__": arch * 10}
    if a_target:
        env[f"__CUDA_ARCH_FEAT_SM{arch}_ALL"] = 1
        env["__CUDA_ARCH_SPECIFIC__"] = arch * 10
        env["__CUDA_ARCH_FAMILY_SPECIFIC__"] = arch * 10
    return env


def header_rows(inc):
    # name -> {(arch, a_target): "header:line"} over every header: overloads and redeclarations
    # in other headers widen a name's availability.
    seen = {}
    for h in HEADERS:
        path = os.path.join(inc, h)
        if not os.path.exists(path):
            continue
        for arch, a in [(x, False) for x in ARCHES] + [(x, True) for x in A_TARGETS]:
            for name, line in active_names(path, env_for(arch, a)).items():
                seen.setdefault(name, {}).setdefault((arch, a), f"{h}:{line}")
    rows = []
    for name in sorted(seen):
        if (name.startswith("_") and not name.startswith("__")) or "internal" in name or \
                re.fullmatch(r"__[A-Z0-9_]+__", name):
            continue  # helpers of the headers themselves
        where = seen[name]
        plain = [a for a in ARCHES if (a, False) in where]
        a_only = [a for a in A_TARGETS if (a, True) in where]
        if plain == ARCHES:
            continue  # no arch constraint
        kind = "type" if all(w[1].startswith("crt/mma.h") for w in where.items()) else "function"
        if plain and plain[0] == ARCHES[0]:
            # Declared for low arches only: removed from the first arch that lacks it, if it never returns.
            gone = next(a for a in ARCHES if a not in plain)
            if all(a not in plain for a in ARCHES if a >= gone):
                rows.append((name, "deprecated", gone, "-", "-", "-",
                             f"{where[(plain[0], False)]} (declared only below sm_{gone})"))
            continue
        if plain:
            rows.append((name, kind, plain[0], "-", "-", "-", f"{where[(plain[0], False)]} (declared from sm_{plain[0]})"))
        elif a_only:
            rows.append((name, kind, a_only[0], f"sm_{a_only[0]}a", "-", "-",
                         f"{where[(a_only[0], True)]} (declared only for arch-specific targets from sm_{a_only[0]}a)"))
    return rows


PLACEHOLDERS = {"space", "sem", "scope", "op", "type", "dst", "src", "level", "cta_group", "kind", "shape", "num",
                "dim", "load_mode", "red_op", "completion_mechanism", "size", "mode", "stype", "dtype", "qualifier"}


def ptx_prefix(instr):
    parts = instr.split(".")
    out = []
    for p in parts:
        if p in PLACEHOLDERS or not re.fullmatch(r"[a-z][a-z0-9_]*(::[a-z0-9_]+)*", p):
            break
        out.append(p)
        if len(out) == 4:
            break
    return ".".join(out)


def cccl_rows(inc):
    d = os.path.join(inc, "cccl/cuda/__ptx/instructions/generated")
    forms = {}
    if not os.path.isdir(d):
        return []
    rx = re.compile(r"^//\s+([a-z][a-z0-9_.:]*)[^;]*;\s*//.*PTX ISA (\d+), (SM_\w+(?:, SM_\w+)*)\s*$")
    fn_rx = re.compile(r"^__device__ static inline .*?\b(\w+)\($")
    wrappers = {}
    for f in sorted(os.listdir(d)):
        pending = []
        for no, line in enumerate(open(os.path.join(d, f), errors="replace"), 1):
            fm = fn_rx.match(line.strip())
            if fm and pending:
                # The documented forms above belong to this cuda::ptx wrapper.
                for lo_, spec_, isa_, src_ in pending:
                    wrappers.setdefault("cuda::ptx::" + fm.group(1), []).append((lo_, spec_, isa_, src_))
                pending = []
            m = rx.match(line.strip())
            if not m:
                continue
            sms0 = re.findall(r"SM_(\d+)([af]?)", m.group(3))
            pending.append((min(int(n) for n, _ in sms0), all(x == "a" for _, x in sms0), int(m.group(2)),
                            f"cccl/cuda/__ptx/instructions/generated/{f}:{no}"))
            pre = ptx_prefix(m.group(1))
            if not pre:
                continue
            sms = re.findall(r"SM_(\d+)([af]?)", m.group(3))
            lo = min(int(n) for n, _ in sms)
            specific = all(s == "a" for _, s in sms)
            forms.setdefault(pre, []).append((lo, specific, int(m.group(2)), f"cccl/cuda/__ptx/instructions/generated/{f}:{no}"))
    rows = []
    for name, fs in sorted(wrappers.items()):
        lo = min(x[0] for x in fs)
        specific = all(x[1] for x in fs)
        isa = min(x[2] for x in fs if x[0] == lo)
        src = next(x[3] for x in fs if x[0] == lo and x[2] == isa)
        if lo <= 50 and not specific:
            continue
        rows.append((name, "function", lo, f"sm_{lo}a" if specific else "-", PTX_TO_CUDA.get(isa, "-"), "-",
                     f"{src} (cuda::ptx wrapper, PTX ISA {isa // 10}.{isa % 10}, SM_{lo}{'a' if specific else ''})"))
    for pre, fs in sorted(forms.items()):
        lo = min(x[0] for x in fs)
        specific = all(x[1] for x in fs)
        isa = min(x[2] for x in fs if x[0] == lo)
        src = next(x[3] for x in fs if x[0] == lo and x[2] == isa)
        if lo <= 50 and not specific:
            continue
        rows.append((pre, "ptx", lo, f"sm_{lo}a" if specific else "-", PTX_TO_CUDA.get(isa, "-"), "-",
                     f"{src} (PTX ISA {isa // 10}.{isa % 10}, SM_{lo}{'a' if specific else ''})"))
    return rows


# PTX ISA 8.8, "Target ISA notes" of each instruction; mma shapes from §9.7.14.
MANUAL = [
    ("cp.async", 80, "-", 70, "PTX ISA §9.7.9.25 cp.async: requires sm_80"),
    ("cp.async.commit_group", 80, "-", 70, "PTX ISA §9.7.9.25.3 cp.async.commit_group: requires sm_80"),
    ("cp.async.wait_group", 80, "-", 70, "PTX ISA §9.7.9.25.4 cp.async.wait_group: requires sm_80"),
    ("cp.async.wait_all", 80, "-", 70, "PTX ISA §9.7.9.25.4 cp.async.wait_all: requires sm_80"),
    ("ldmatrix", 75, "-", 65, "PTX ISA §9.7.14.5.15 ldmatrix: requires sm_75"),
    ("stmatrix", 90, "-", 78, "PTX ISA §9.7.14.5.16 stmatrix: requires sm_90"),
    ("movmatrix", 75, "-", 78, "PTX ISA §9.7.14.5.17 movmatrix: requires sm_75"),
    ("mma.sync.aligned.m8n8k4", 70, "-", 64, "PTX ISA §9.7.14.5.14 mma.m8n8k4 (.f16): requires sm_70"),
    ("mma.sync.aligned.m16n8k8", 75, "-", 65, "PTX ISA §9.7.14.5.14 mma.m16n8k8 (.f16): requires sm_75"),
    ("mma.sync.aligned.m16n8k16", 80, "-", 70, "PTX ISA §9.7.14.5.14 mma.m16n8k16: requires sm_80"),
    ("mma.sync.aligned.m16n8k32", 80, "-", 70, "PTX ISA §9.7.14.5.14 mma.m16n8k32 (.s8/.e4m3): requires sm_80"),
    ("mma.sync.aligned.m16n8k4", 80, "-", 70, "PTX ISA §9.7.14.5.14 mma.m16n8k4 (.tf32): requires sm_80"),
    ("mma.sync.aligned.m8n8k16", 75, "-", 65, "PTX ISA §9.7.14.5.14 mma.m8n8k16 (.s8): requires sm_75"),
    ("mma.sync.aligned.m8n8k32", 75, "-", 65, "PTX ISA §9.7.14.5.14 mma.m8n8k32 (.s4): requires sm_75"),
    ("mma.sync.aligned.m16n8k64", 80, "-", 70, "PTX ISA §9.7.14.5.14 mma.m16n8k64 (.s4): requires sm_80"),
    ("wgmma.mma_async", 90, "sm_90a", 80, "PTX ISA §9.7.15.5 wgmma.mma_async: requires sm_90a"),
    ("wgmma.fence", 90, "sm_90a", 80, "PTX ISA §9.7.15.6.1 wgmma.fence: requires sm_90a"),
    ("wgmma.commit_group", 90, "sm_90a", 80, "PTX ISA §9.7.15.6.2 wgmma.commit_group: requires sm_90a"),
    ("wgmma.wait_group", 90, "sm_90a", 80, "PTX ISA §9.7.15.6.3 wgmma.wait_group: requires sm_90a"),
    ("setmaxnreg", 90, "sm_90a", 80, "PTX ISA §9.7.19.6 setmaxnreg: requires sm_90a"),
    ("elect.sync", 90, "-", 80, "PTX ISA §9.7.13.11 elect.sync: requires sm_90"),
    ("redux.sync", 80, "-", 70, "PTX ISA §9.7.13.12 redux.sync: requires sm_80"),
    ("griddepcontrol", 90, "-", 78, "PTX ISA §9.7.13.13 griddepcontrol: requires sm_90"),
    ("cvt.rn.satfinite.e4m3x2", 89, "-", 78, "PTX ISA §9.7.9.21 cvt (.e4m3x2): requires sm_89"),
    ("cvt.rn.satfinite.e5m2x2", 89, "-", 78, "PTX ISA §9.7.9.21 cvt (.e5m2x2): requires sm_89"),
    ("cvt.rn.f16x2.e4m3x2", 89, "-", 78, "PTX ISA §9.7.9.21 cvt (from .e4m3x2): requires sm_89"),
    ("cvt.rn.f16x2.e5m2x2", 89, "-", 78, "PTX ISA §9.7.9.21 cvt (from .e5m2x2): requires sm_89"),
    ("cvt.rna.tf32", 80, "-", 70, "PTX ISA §9.7.9.21 cvt (.tf32): requires sm_80"),
    ("cvt.rn.bf16x2", 80, "-", 70, "PTX ISA §9.7.9.21 cvt (.bf16x2): requires sm_80"),
    ("cvt.rn.bf16", 80, "-", 70, "PTX ISA §9.7.9.21 cvt (.bf16): requires sm_80"),
    ("ld.global.nc.L2::128B", 75, "-", 74, "PTX ISA §9.7.9.8 ld (.L2::128B): requires sm_75"),
    ("ld.global.L2::256B", 80, "-", 74, "PTX ISA §9.7.9.8 ld (.L2::256B): requires sm_80"),
    ("match.any.sync", 70, "-", 60, "PTX ISA §9.7.13.10 match.sync: requires sm_70"),
    ("match.all.sync", 70, "-", 60, "PTX ISA §9.7.13.10 match.sync: requires sm_70"),
    ("nanosleep", 70, "-", 63, "PTX ISA §9.7.19.4 nanosleep: requires sm_70"),
    ("mapa", 90, "-", 78, "PTX ISA §9.7.9.19 mapa: requires sm_90"),
    ("tcgen05.mma", 100, "sm_100a", 86, "PTX ISA §9.7.16.10 tcgen05.mma: requires sm_100a"),
    ("tcgen05.alloc", 100, "sm_100a", 86, "PTX ISA §9.7.16.7 tcgen05.alloc: requires sm_100a"),
    ("tcgen05.ld", 100, "sm_100a", 86, "PTX ISA §9.7.16.8 tcgen05.ld: requires sm_100a"),
    ("multimem.ld_reduce", 90, "-", 81, "PTX ISA §9.7.9.14 multimem: requires sm_90"),
]

# CUDA 13 removed these device types' emulation on older arches? No: they are plain types; the
# constraints live on the functions. wmma element types of crt/mma.h are handled by the header pass.


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuda-include", default="/usr/local/cuda/include")
    a = ap.parse_args()
    inc = a.cuda_include
    version = "unknown"
    vh = os.path.join(inc, "cuda.h")
    if os.path.exists(vh):
        m = re.search(r"#define CUDA_VERSION (\d+)", open(vh).read())
        if m:
            v = int(m.group(1))
            version = f"{v // 1000}.{(v % 1000) // 10}"
    rows = header_rows(inc) + cccl_rows(inc)
    seen = {r[0] for r in rows}
    for feat, sm, spec, isa, src in MANUAL:
        if feat in seen:
            rows = [r for r in rows if r[0] != feat]
        rows.append((feat, "ptx", sm, spec, PTX_TO_CUDA.get(isa, "-"), "-", src))
    # Votes whose declarations carry no arch guard: the deprecation message of the header says
    # they are "not valid on compute_70 and above" (device_atomic_functions.h, sm_20_intrinsics.h).
    for feat, src in (("__any", "device_atomic_functions.h:158"), ("__all", "device_atomic_functions.h:159"),
                      ("__ballot", "sm_20_intrinsics.h:300")):
        if feat not in {r[0] for r in rows}:
            rows.append((feat, "deprecated", 70, "-", "-", "-", f"{src} (__WSB_DEPRECATION_MESSAGE: not valid on compute_70 and above)"))
    rows.sort(key=lambda r: (r[1], r[0]))
    out = sys.stdout
    out.write(f"# Generated by scripts/gen-cuda-features.py from the CUDA {version} headers ({inc}) and the\n"
              "# PTX ISA notes cited per row; regenerate for a new toolkit. min_sm: lowest arch where the\n"
              "# feature is available to device code; arch_specific: the `a` target it needs (else -);\n"
              "# cuda_from/cuda_until: toolkit range the row holds for (- = unbounded).\n")
    out.write("feature\tkind\tmin_sm\tarch_specific\tcuda_from\tcuda_until\tsource\n")
    for r in rows:
        out.write("\t".join(str(x) for x in r) + "\n")
    print(f"{len(rows)} rows", file=sys.stderr)


if __name__ == "__main__":
    main()
