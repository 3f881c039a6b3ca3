#!/usr/bin/env python3
"""Generates data/cuda_features.tsv: CUDA device features -> minimum sm, arch-specific targets,
toolkit range, source.

    python3 scripts/gen-cuda-features.py --cuda-include /usr/local/cuda/include \
        [--older-include /path/to/cuda-12.6/include ...] > data/cuda_features.tsv

Deterministic: the same headers give the same bytes. Needs only python3 and a C preprocessor
(`cpp`/`gcc -E`), no nvcc and no GPU.

Three sources, each row citing where its fact comes from:

1. The toolkit headers. For every target of the toolkit (sm_75 ... sm_121f for CUDA 13, with the
   legacy sm_50 ... sm_72 added so that the table also says what older toolkits could build), the
   headers are run through the C preprocessor exactly as nvcc's device pass does (its `-D` set:
   `__CUDA_ARCH__`, `__CUDA_ARCH_FEAT_SMxx_ALL`, `__CUDA_ARCH_SPECIFIC__`,
   `__CUDA_ARCH_FAMILY_SPECIFIC__`, `__CUDACC_VER_*`), so every `#if`/`#elif`/`#ifdef` guard, the
   macros that guards define (`__CUDA_AMPERE_MMA__`, `_CG_HAS_CLUSTER_GROUP`) and the headers they
   include are evaluated by a real preprocessor. The declarations of the output are then read:
   `__device__` functions (per name, and per overload keyed by the first parameter's type),
   classes, specialisations of `nvcuda::wmma::fragment` (keyed by element type) and enumerators.
   A name declared for some targets only becomes a row; the citation is the header line of the
   declaration and the guard around it.
2. The `cuda::ptx` wrappers of CCCL, whose generated headers document each form with
   `// <instruction> ... // PTX ISA NN, SM_XX[a|f]`.
3. A hand-written, cited list of PTX instructions (PTX_ROWS below) for inline `asm()`.

A second toolkit's headers (--older-include) give rows with a toolkit range: where both agree on
the targets both can build, one row with no range; where they differ, one row up to the newer
toolkit (`cuda_until`) and one from it (`cuda_from`).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

# ------------------------------------------------------------------------------------------------
# Targets. nvcc 13.0 `--list-gpu-code` gives sm_75 ... sm_121; its `--gpu-architecture` help adds
# compute_XXa for 90, 100, 103, 110, 120, 121 and compute_XXf for 100, 103, 110, 120, 121.
# CUDA 12.6 builds sm_50 ... sm_90 and sm_90a (nvcc 12.6 --list-gpu-code).
TARGETS = {
    13: ["sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a", "sm_100f",
         "sm_103", "sm_103a", "sm_103f", "sm_110", "sm_110a", "sm_110f", "sm_120", "sm_120a", "sm_120f",
         "sm_121", "sm_121a", "sm_121f"],
    12: ["sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72", "sm_75", "sm_80", "sm_86", "sm_87",
         "sm_89", "sm_90", "sm_90a"],
}
# Arches older toolkits build: the headers still carry their guards, which tell when a function
# appeared (sm_53 for half arithmetic) or was removed (the non-_sync warp functions below sm_70).
LEGACY = ["sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72"]


def sm_of(t):
    return int(re.fullmatch(r"sm_(\d+)[af]?", t).group(1))


def variant(t):
    return t[-1] if t[-1] in "af" else ""


def target_key(t):
    return sm_of(t), {"": 0, "a": 1, "f": 2}[variant(t)]


def target_defines(t):
    """The -D set nvcc's device pass uses for target t (from `nvcc -cubin -arch=t --dryrun`)."""
    arch = sm_of(t) * 10
    d = [f"-D__CUDA_ARCH__={arch}", f"-D__CUDA_ARCH_LIST__={arch}"]
    if variant(t) == "a":
        d += [f"-D__CUDA_ARCH_FEAT_SM{sm_of(t)}_ALL", f"-D__CUDA_ARCH_SPECIFIC__={arch}",
              f"-D__CUDA_ARCH_FAMILY_SPECIFIC__={arch}"]
    elif variant(t) == "f":
        d += [f"-D__CUDA_ARCH_FAMILY_SPECIFIC__={arch}"]
    return d


# ------------------------------------------------------------------------------------------------
# Preprocessing

TU_HEADERS = ["cuda_fp16.h", "cuda_bf16.h", "cuda_fp8.h", "cuda_fp6.h", "cuda_fp4.h", "mma.h", "cuda_pipeline.h",
              "cuda_awbarrier.h", "cooperative_groups.h", "cooperative_groups/reduce.h",
              "cooperative_groups/scan.h", "cooperative_groups/memcpy_async.h"]
# Declarations are read from these headers only; libcu++/CUB/Thrust and the host's C++ library
# are skipped (their device code is not arch-guarded at declaration level).
SKIP_DIRS = ("cccl/", "cuda/", "nv/", "cub/", "thrust/", "cuda/std/")


def toolkit_version(inc):
    text = open(os.path.join(inc, "cuda.h"), errors="replace").read()
    v = int(re.search(r"#define\s+CUDA_VERSION\s+(\d+)", text).group(1))
    return v // 1000, (v % 1000) // 10


def find_cpp():
    for c in ("g++", "gcc", "cpp", "clang++"):
        p = shutil.which(c)
        if p:
            return p
    sys.exit("gen-cuda-features.py: needs a C preprocessor (g++, gcc, cpp or clang++)")


def preprocess(cpp, inc, version, target):
    major, minor = version
    tu = "".join(f"#if __has_include(<{h}>)\n#include <{h}>\n#endif\n" for h in TU_HEADERS)
    cmd = [cpp, "-E", "-x", "c++", "-std=c++17", "-m64", *target_defines(target), "-DCUDA_DOUBLE_MATH_FUNCTIONS",
           "-D__CUDACC__", "-D__NVCC__", f"-I{inc}"]
    if os.path.isdir(os.path.join(inc, "cccl")):
        cmd += ["-isystem", os.path.join(inc, "cccl")]
    cmd += [f"-D__CUDACC_VER_MAJOR__={major}", f"-D__CUDACC_VER_MINOR__={minor}", "-D__CUDACC_VER_BUILD__=0",
            f"-D__CUDA_API_VER_MAJOR__={major}", f"-D__CUDA_API_VER_MINOR__={minor}",
            "-D__NVCC_DIAG_PRAGMA_SUPPORT__=1", "-D__CUDACC_DEVICE_ATOMIC_BUILTINS__=1",
            "-include", "cuda_runtime.h", "-"]
    r = subprocess.run(cmd, input=tu, capture_output=True, text=True)
    # A header that `#error`s for this target (cuda_awbarrier.h below sm_70) declares nothing
    # usable there: its names count as unavailable. Any other failure is fatal.
    failed = set()
    for m in re.finditer(r"^(\S+?):\d+:\d+: error: #error", r.stderr, re.M):
        path = os.path.normpath(m.group(1))
        if path.startswith(os.path.normpath(inc) + os.sep):
            failed.add(path[len(os.path.normpath(inc)) + 1:])
        elif "/include/" in path:
            failed.add(path.split("/include/", 1)[1])
    if r.returncode != 0 and not failed:
        sys.exit(f"preprocessing for {target} failed:\n{r.stderr[:2000]}")
    return r.stdout, failed


TOKEN_RE = re.compile(r'''\s+|//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|[A-Za-z_]\w*|\d[\w.]*|::|->|.''', re.S)


def tokens(pp, inc):
    """(token, header, line) for the lines of the interesting headers; line markers tracked."""
    cur_file, cur_line, keep = None, 0, False
    inc = os.path.normpath(inc) + os.sep
    for raw in pp.split("\n"):
        if raw.startswith("#"):
            m = re.match(r'#\s*(\d+)\s+"([^"]*)"', raw)
            if m:
                cur_line = int(m.group(1))
                path = os.path.normpath(m.group(2))
                rel = path[len(inc):] if path.startswith(inc) else None
                # targets/<arch>/include is the same tree seen through the symlink
                if rel is None and "/targets/" in path and "/include/" in path:
                    rel = path.split("/include/", 1)[1]
                keep = rel is not None and not rel.startswith(SKIP_DIRS)
                cur_file = rel
            else:
                cur_line += 1  # a #pragma kept by the preprocessor occupies its source line
            continue
        if keep:
            for m in TOKEN_RE.finditer(raw):
                t = m.group(0)
                if not t.isspace() and not t.startswith(("//", "/*")):
                    yield t, cur_file, cur_line
        cur_line += 1


INLINE_NS = re.compile(r"^(__v\d+|__\d+|_CUDA_VSTD|__cccl\w*)$")  # ABI/inline namespaces
SKIP_CALLEE = {"__attribute__", "__declspec", "alignas", "__align__", "decltype", "sizeof", "alignof", "noexcept",
               "__location__", "static_assert", "__asm__", "asm", "__builtin_align__", "throw", "requires"}
QUALIFIERS = {"const", "volatile", "__restrict__", "__restrict", "restrict", "struct", "class", "enum", "typename",
              "unsigned", "signed", "long", "short", "int", "char", "float", "double", "bool", "void"}


PUBLIC_DUNDER = {"nvcuda::wmma::__float_to_tf32"}  # documented API despite the reserved-looking name


def internal(name):
    """Implementation details of the headers, not API a kernel calls."""
    base = name.split("(")[0]
    parts = base.split("::")
    if base in PUBLIC_DUNDER:
        return False
    if any(p.startswith("_") and len(p) > 1 and (p[1].isupper() or p[1].isalpha()) for p in parts):
        return True  # _Reserved, _cg_helper
    if len(parts) > 1 and parts[-1].startswith("__"):
        return True  # namespaced __helpers (nvcuda::wmma::__frag_base, cuda::__block_scope_barrier_base)
    last = parts[-1]
    return "internal" in last or last.endswith("_impl") or last.startswith("__nv_atomic") or \
        any(p in ("details", "detail", "__detail", "impl", "__impl") for p in parts[:-1])


TYPE_WORDS = {"unsigned", "signed", "long", "short", "int", "char", "float", "double", "bool", "void"}


def param_type(toks):
    """`const __nv_bfloat162 a` -> `__nv_bfloat162`; `float2 *__address` -> `float2*`;
    `unsigned mask` -> `unsigned int`."""
    t = [x for x in toks if x not in ("const", "volatile", "__restrict__", "__restrict", "&", "&&")]
    if "=" in t:
        t = t[:t.index("=")]
    if not t or t[0] == "__attribute__":
        return ""
    # drop the parameter name: a trailing identifier after a type
    if len(t) >= 2 and re.fullmatch(r"[A-Za-z_]\w*", t[-1]) and t[-1] not in TYPE_WORDS and \
            (t[-2] == "*" or t[-2] == ">" or re.fullmatch(r"[A-Za-z_]\w*", t[-2])):
        t = t[:-1]
    s = " ".join(t)
    s = re.sub(r"\s*\*\s*", "*", s)
    s = re.sub(r"\s*<\s*", "<", s)
    s = re.sub(r"\s*>\s*", ">", s)
    s = re.sub(r"\s*,\s*", ",", s)
    s = re.sub(r"\s*::\s*", "::", s)
    # one spelling per builtin type
    s = re.sub(r"\bunsigned(?!\s+(?:int|char|short|long))", "unsigned int", s)
    s = re.sub(r"\b(short|long long|long) int\b", r"\1", s)
    return s


def declarations(pp, inc):
    """Names declared in the preprocessed text: {key: (header, line)}.

    Keys: `ns::f` for a __device__ function, `ns::f(T)` for its overload whose first parameter
    has type T, `ns::C` for a class, `ns::fragment<E>` for a wmma fragment specialisation with
    element type E, `ns::E` for an enumerator.
    """
    toks = list(tokens(pp, inc))
    out = {}
    scope = []  # namespace names ("" for transparent scopes)
    stmt = []
    i, n = 0, len(toks)

    def qual(name):
        parts = [s for s in scope if s and not INLINE_NS.match(s)]
        return "::".join(parts + [name])

    def add(key, where, kind):
        if not internal(key):
            out.setdefault(key, (where[0], where[1], kind))

    def skip_block(j):
        depth = 0
        while j < n:
            if toks[j][0] == "{":
                depth += 1
            elif toks[j][0] == "}":
                depth -= 1
                if depth == 0:
                    return j
            j += 1
        return j

    def top_level_words(st):
        depth = 0
        for k, (t, _, _) in enumerate(st):
            if t in "([":
                depth += 1
            elif t in ")]":
                depth -= 1
            elif depth == 0:
                yield k, t

    def function_decl(st):
        words = [t for t, _, _ in st]
        text = " ".join(words)
        if "( ( device ) )" not in text.replace("((", "( (").replace("))", ") )") and \
                not re.search(r"__attribute__ \( \( (?:__)?device(?:__)? \) \)", text):
            return
        depth, angle = 0, 0
        k = 0
        while k < len(st):
            t = st[k][0]
            if t == "(":
                prev = st[k - 1][0] if k else ""
                if depth == 0 and angle == 0 and re.fullmatch(r"[A-Za-z_]\w*", prev) and prev not in SKIP_CALLEE:
                    if k >= 2 and st[k - 2][0] in ("::", "operator", "~"):
                        return  # out-of-class member definition or operator
                    if prev == "operator":
                        return
                    # first parameter
                    j, d, first = k + 1, 0, []
                    while j < len(st):
                        x = st[j][0]
                        if x in "([<":
                            d += 1
                        elif x in ")]>":
                            if d == 0:
                                break
                            d -= 1
                        elif x == "," and d == 0:
                            break
                        first.append(x)
                        j += 1
                    name = qual(prev)
                    where = (st[k - 1][1], st[k - 1][2])
                    add(name, where, "function")
                    pt = param_type(first)
                    if pt and pt != "void":
                        tparams = set(re.findall(r"(?:typename|class)\s+(\w+)", text.split(prev + " (")[0]))
                        for tp in tparams:
                            pt = re.sub(rf"\b{re.escape(tp)}\b", "T", pt)
                        if not pt.startswith(("fragment<", "__frag_base<")):  # wmma: keyed by fragment<E>
                            add(f"{name}({pt})", where, "function")
                    return
                depth += 1
            elif t == ")":
                depth -= 1
            elif t == "<" and depth == 0 and k and re.fullmatch(r"[A-Za-z_]\w*", st[k - 1][0]) and st[k - 1][0] != "operator":
                angle += 1
            elif t == ">" and depth == 0 and angle:
                angle -= 1
            k += 1

    def class_decl(st, has_body):
        words = list(top_level_words(st))
        for idx, (k, t) in enumerate(words):
            if t in ("class", "struct", "union"):
                if any(w in ("(",) for _, w in words[:idx]):
                    return
                j = k + 1
                while j < len(st) and st[j][0] in ("__attribute__", "alignas", "__align__", "__declspec"):
                    j += 1
                    if j < len(st) and st[j][0] == "(":
                        d = 0
                        while j < len(st):
                            d += st[j][0] == "("
                            d -= st[j][0] == ")"
                            j += 1
                            if d == 0:
                                break
                if j >= len(st) or not re.fullmatch(r"[A-Za-z_]\w*", st[j][0]):
                    return
                name = st[j][0]
                where = (st[j][1], st[j][2])
                if j + 1 < len(st) and st[j + 1][0] == "<":
                    # specialisation: fragment<use, m, n, k, T[, layout]> -> fragment<T>
                    args, d, cur = [], 0, []
                    for x, _, _ in st[j + 2:]:
                        if x == "<":
                            d += 1
                        elif x == ">":
                            if d == 0:
                                break
                            d -= 1
                        if x == "," and d == 0:
                            args.append(" ".join(cur))
                            cur = []
                        else:
                            cur.append(x)
                    args.append(" ".join(cur))
                    if name == "fragment" and len(args) >= 5:
                        add(qual(f"fragment<{args[4].replace(' :: ', '::')}>"), where, "type")
                    return
                if has_body or (j + 1 == len(st)):
                    add(qual(name), where, "type")
                return

    while i < n:
        t = toks[i][0]
        if t == "{":
            words = [w for _, w in top_level_words(stmt)]
            if "namespace" in words:
                k = words.index("namespace")
                nm = words[k + 1] if k + 1 < len(words) and re.fullmatch(r"[A-Za-z_]\w*", words[k + 1]) else ""
                scope.append(nm)
                stmt = []
                i += 1
                continue
            if words[:1] == ["extern"] and len(stmt) >= 2 and stmt[1][0].startswith('"'):
                scope.append("")
                stmt = []
                i += 1
                continue
            if "enum" in words and "(" not in words:
                # enumerators live in the enclosing namespace (unscoped enums)
                scoped = "class" in words or "struct" in words
                enum_name = words[-1] if words and re.fullmatch(r"[A-Za-z_]\w*", words[-1]) else ""
                j = i + 1
                expect = True
                d = 0
                while j < n and not (toks[j][0] == "}" and d == 0):
                    x = toks[j][0]
                    if x in "({[":
                        d += 1
                    elif x in ")}]":
                        d -= 1
                    elif x == "," and d == 0:
                        expect = True
                    elif expect and d == 0 and re.fullmatch(r"[A-Za-z_]\w*", x):
                        add(qual(f"{enum_name}::{x}" if scoped and enum_name else x), (toks[j][1], toks[j][2]), "type")
                        expect = False
                    j += 1
                i = j + 1
                stmt = []
                continue
            if any(w in ("class", "struct", "union") for w in words) and "(" not in words:
                class_decl(stmt, True)
                i = skip_block(i) + 1
                stmt = []
                continue
            function_decl(stmt)
            i = skip_block(i) + 1
            stmt = []
            continue
        if t == ";":
            if stmt:
                words = [w for _, w in top_level_words(stmt)]
                if any(w in ("class", "struct", "union") for w in words) and "(" not in words and "typedef" not in words:
                    class_decl(stmt, False)
                else:
                    function_decl(stmt)
            stmt = []
        elif t == "}":
            if scope:
                scope.pop()
            stmt = []
        elif t == ":" and [w for w, _, _ in stmt] in (["public"], ["private"], ["protected"]):
            stmt = []
        else:
            stmt.append(toks[i])
        i += 1
    return out


# ------------------------------------------------------------------------------------------------
# Guard citations: the innermost conditional around a header line that tests an arch macro.

GUARD_WORDS = re.compile(r"__CUDA_ARCH|_MMA__|IMMA__|_CG_HAS_|_CG_CUDA_ARCH|NV_PROVIDES|__CUDA_ARCH_FEAT")


def error_guard(inc, header):
    """`#error if <cond>` for a header that refuses some targets (cuda_awbarrier_primitives.h)."""
    try:
        lines = open(os.path.join(inc, header), errors="replace").read().split("\n")
    except OSError:
        return ""
    for no, l in enumerate(lines, 1):
        if re.match(r"\s*#\s*error\b", l):
            g = guard_at(inc, header, no)
            if g:
                return f"#error if {g}"
    return ""


def cite_guard(inc, header, line):
    return guard_at(inc, header, line) or error_guard(inc, header)


def guard_at(inc, header, line, cache={}):
    if header not in cache:
        try:
            cache[header] = open(os.path.join(inc, header), errors="replace").read().replace("\\\n", " ").split("\n")
        except OSError:
            cache[header] = []
    lines = cache[header]
    stack = []
    for no in range(min(line - 1, len(lines))):
        s = lines[no].strip()
        m = re.match(r"#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)", s)
        if not m:
            continue
        kw, rest = m.group(1), re.sub(r"/\*.*?\*/|//.*", "", m.group(2)).strip()
        if kw == "if":
            stack.append(rest)
        elif kw == "ifdef":
            stack.append(f"defined({rest})")
        elif kw == "ifndef":
            stack.append(f"!defined({rest})")
        elif kw == "elif" and stack:
            stack[-1] = rest
        elif kw == "else" and stack:
            stack[-1] = f"!({stack[-1]})"
        elif kw == "endif" and stack:
            stack.pop()
    for cond in reversed(stack):
        if GUARD_WORDS.search(cond):
            return re.sub(r"\s+", " ", cond)
    return ""


# ------------------------------------------------------------------------------------------------
# Availability -> row fields

def row_fields(avail, universe):
    """(kind_override, min_sm, arch_specific) for the set of targets where a name is available,
    or None when it is available on every target of the universe."""
    avail = [t for t in universe if t in avail]
    if len(avail) == len(universe):
        return None
    if not avail:
        return "absent", 0, "-"
    lo = min(sm_of(t) for t in avail)
    if set(avail) == {t for t in universe if sm_of(t) >= lo}:
        return "", lo, "-"
    # removed: available on a prefix of the arches only
    missing = [t for t in universe if t not in avail]
    first_gone = min(sm_of(t) for t in missing)
    if all(sm_of(t) < first_gone for t in avail) and sm_of(universe[0]) < first_gone:
        return "deprecated", first_gone, "-"
    return "", lo, ",".join(avail)


def header_facts(cpp, inc, legacy=True):
    version = toolkit_version(inc)
    universe = (LEGACY if legacy and version[0] >= 13 else []) + TARGETS[13 if version[0] >= 13 else 12]
    seen = {}  # key -> {target: (header, line)}
    for t in universe:
        pp, failed = preprocess(cpp, inc, version, t)
        for key, where in declarations(pp, inc).items():
            if where[0] not in failed:
                seen.setdefault(key, {})[t] = where
    return version, universe, seen



def wsb_removed(inc):
    """Warp functions declared for every target but marked __WSB_DEPRECATION_MESSAGE, whose message
    says they are "not valid on compute_70 and above" (their bodies use vote/shfl without .sync,
    which ptxas rejects from sm_70): {name: (header, line, first sm without it)}."""
    out = {}
    gone = None
    for h in ("device_atomic_functions.h", "sm_20_intrinsics.h", "sm_30_intrinsics.h", "sm_32_intrinsics.h"):
        path = os.path.join(inc, h)
        if not os.path.exists(path):
            continue
        for no, line in enumerate(open(path, errors="replace"), 1):
            m = re.search(r'#define\s+__WSB_DEPRECATION_MESSAGE\(x\).*not valid on compute_(\d+)', line)
            if m and gone is None:
                gone = int(m.group(1))
            m = re.search(r"__DEPRECATED__\(__WSB_DEPRECATION_MESSAGE\((\w+)\)\)[^;(]*\b(\w+)\s*\(", line)
            if m and m.group(1) == m.group(2):
                out.setdefault(m.group(1), (h, no))
    return {k: (h, no, gone) for k, (h, no) in out.items()} if gone else {}


def header_rows(cpp, inc, older):
    version, universe, seen = header_facts(cpp, inc)
    vstr = f"{version[0]}.{version[1]}"
    old = None
    if older:
        oversion, ouniverse, oseen = header_facts(cpp, older)
        old = (f"{oversion[0]}.{oversion[1]}", ouniverse, oseen)
    rows = []
    for key in sorted(seen):
        where = seen[key]
        f = row_fields(set(where), universe)
        if f is None:
            continue
        kind, lo, spec = f
        base = key.split("(")[0]
        if "(" in key:
            # an overload only matters when it is stricter than the name itself
            bf = row_fields(set(seen.get(base, {})), universe)
            if bf is not None and bf[1] >= lo and bf[2] == spec and bf[0] == kind:
                continue
        first = min((t for t in where), key=target_key) if kind != "deprecated" else None
        if kind == "deprecated":
            lo_t = [t for t in universe if t in where][-1]
            src_h, src_l = where[lo_t][:2]
            g = cite_guard(inc, src_h, src_l)
            cite = f"{src_h}:{src_l}" + (f" {g}" if g else "") + f" (CUDA {vstr}: declared only below sm_{lo})"
        else:
            src_h, src_l = where[first][:2]
            g = cite_guard(inc, src_h, src_l)
            cite = f"{src_h}:{src_l}" + (f" {g}" if g else "") + f" (CUDA {vstr}: declared for " + \
                (f"sm_{lo} and up)" if spec == "-" else f"{spec} only)")
        rkind = kind or next(iter(where.values()))[2]
        cfrom, cuntil = "-", "-"
        extra = []
        if old:
            ov, ouni, oseen = old
            common = [t for t in ouni if t in universe]
            of_ = row_fields(set(oseen.get(key, {})), common) if key in oseen else ("absent", 0, "-")
            nf = row_fields(set(where), common)
            if key not in oseen:
                cfrom = vstr
                cite += f"; not declared by the CUDA {ov} headers"
            elif of_ != nf:
                cfrom = vstr
                of_full = row_fields(set(oseen[key]), ouni)
                if of_full is not None and of_full[0] != "absent":
                    okind, olo, ospec = of_full
                    oh, ol = (oseen[key][min(oseen[key], key=target_key)] if okind != "deprecated" else
                              oseen[key][[t for t in ouni if t in oseen[key]][-1]])[:2]
                    og = cite_guard(older, oh, ol)
                    extra.append((key, okind or next(iter(oseen[key].values()))[2], olo, ospec, "-", vstr,
                                  f"{oh}:{ol}" + (f" {og}" if og else "") + f" (CUDA {ov} headers)"))
        rows.append((key, rkind, lo, spec, cfrom, cuntil, cite))
        rows.extend(extra)
    for name, (h, no, gone) in sorted(wsb_removed(inc).items()):
        if name not in {r[0] for r in rows}:
            rows.append((name, "deprecated", gone, "-", "-", "-",
                         f"{h}:{no} __DEPRECATED__(__WSB_DEPRECATION_MESSAGE({name})): \"not valid on compute_{gone} "
                         f"and above\" (its vote/shfl has no .sync; ptxas rejects it from sm_{gone})"))
    # Names the older toolkit restricted but the newer one declares everywhere (emulated now).
    if old:
        ov, ouni, oseen = old
        for key in sorted(oseen):
            if key in seen and row_fields(set(seen[key]), universe) is not None:
                continue
            if key not in seen:
                continue  # removed from the newer headers: nothing to say about the newer toolkit
            of_ = row_fields(set(oseen[key]), ouni)
            if of_ is None or of_[0] == "absent":
                continue
            okind, olo, ospec = of_
            if "(" in key:
                bf = row_fields(set(oseen.get(key.split("(")[0], {})), ouni)
                if bf is not None and bf[1] >= olo and bf[2] == ospec and bf[0] == okind:
                    continue
            oh, ol = (oseen[key][min(oseen[key], key=target_key)] if okind != "deprecated" else
                      oseen[key][[t for t in ouni if t in oseen[key]][-1]])[:2]
            og = cite_guard(older, oh, ol)
            rows.append((key, okind or next(iter(oseen[key].values()))[2], olo, ospec, "-", vstr,
                         f"{oh}:{ol}" + (f" {og}" if og else "") +
                         f" (CUDA {ov} headers; CUDA {vstr} declares it for every target)"))
    return vstr, rows



# ------------------------------------------------------------------------------------------------
# cuda::ptx wrappers (CCCL)

PTX_TO_CUDA = {60: "9.0", 61: "9.1", 62: "9.2", 63: "10.0", 64: "10.1", 65: "10.2", 70: "11.0", 71: "11.1",
               72: "11.2", 73: "11.3", 74: "11.4", 75: "11.5", 76: "11.6", 77: "11.7", 78: "11.8", 80: "12.0",
               81: "12.1", 82: "12.2", 83: "12.3", 84: "12.4", 85: "12.5", 86: "12.8", 87: "12.9", 88: "13.0"}


def cccl_rows(inc):
    d = os.path.join(inc, "cccl/cuda/__ptx/instructions/generated")
    if not os.path.isdir(d):
        return []
    doc_rx = re.compile(r"^//\s+([a-z][\w.:{}]*)[^;]*;\s*//.*PTX ISA (\d+), (SM_\w+(?:, SM_\w+)*)\s*$")
    fn_rx = re.compile(r"^__device__ static inline .*?\b(\w+)\(")
    wrappers = {}
    for f in sorted(os.listdir(d)):
        pending = []
        for no, line in enumerate(open(os.path.join(d, f), errors="replace"), 1):
            s = line.strip()
            fm = fn_rx.match(s)
            if fm and pending:
                wrappers.setdefault("cuda::ptx::" + fm.group(1), []).extend(pending)
                pending = []
            m = doc_rx.match(s)
            if m:
                sms = re.findall(r"SM_(\d+)([af]?)", m.group(3))
                pending.append((sms, int(m.group(2)), f"cccl/cuda/__ptx/instructions/generated/{f}:{no}"))
    rows = []
    for name, forms in sorted(wrappers.items()):
        # The wrapper compiles for a target when any documented form does.
        plain = [int(n) for sms, _, _ in forms for n, v in sms if not v]
        lo_plain = min(plain) if plain else None
        specific = sorted({f"sm_{n}{v}" for sms, _, _ in forms for n, v in sms if v}, key=target_key)
        if lo_plain is not None:
            lo, spec = lo_plain, "-"
            if lo <= 75:
                continue  # no constraint for any target nvcc 13 builds
        else:
            lo = min(sm_of(t) for t in specific)
            spec = expand_specific(specific)
        isa = min(i for sms, i, _ in forms if any((int(n) == lo) for n, _ in sms))
        src = next(s for sms, i, s in forms if i == isa and any(int(n) == lo for n, _ in sms))
        rows.append((name, "function", lo, spec, PTX_TO_CUDA.get(isa, "-"), "-",
                     f"{src} (cuda::ptx wrapper, PTX ISA {isa // 10}.{isa % 10}, "
                     f"{'SM_' + str(lo) if spec == '-' else spec}; below it a link-time "
                     f"__cuda_ptx_*_is_not_supported_before_SM_* stub)"))
    return rows


def expand_specific(specific):
    """CCCL's SM_100f means the family: sm_100f and the later members' a/f targets (sm_103a/f)."""
    out = set()
    for t in specific:
        out.add(t)
        if variant(t) == "a":
            continue
        fam = sm_of(t) // 10
        for u in TARGETS[13]:
            if variant(u) and sm_of(u) // 10 == fam and sm_of(u) >= sm_of(t):
                out.add(u)
        out.add(f"sm_{sm_of(t)}a")
    return ",".join(sorted(out, key=target_key))


# ------------------------------------------------------------------------------------------------
# PTX instructions for inline asm: matched by the longest dotted prefix of a parsed instruction.
# Each row cites the "Target ISA notes" of the PTX ISA 9.0 manual (CUDA 13.0) section and, where
# the oracle corpus (tests/oracle/intr) exercises it, ptxas 13.0's own message.
# (feature, min_sm, arch-specific targets or "-", PTX ISA version that introduced it, citation)
A90 = "sm_90a"
TC05 = "sm_100a,sm_100f,sm_103a,sm_103f,sm_110a,sm_110f"  # tcgen05: sm_100a/101a(110a), family 100f/110f
A_BW = "sm_100a,sm_100f,sm_103a,sm_103f,sm_110a,sm_110f,sm_120a,sm_120f,sm_121a,sm_121f"
A_100F = "sm_100a,sm_100f,sm_103a,sm_103f"  # the sm_100f family only (sm_100, sm_103): not sm_110, sm_12x
PTX_ROWS = [
    # asynchronous copies (PTX ISA §9.7.9.25)
    ("cp.async", 80, "-", 70, "PTX ISA §9.7.9.25.3 cp.async: requires sm_80 or higher"),
    ("cp.async.commit_group", 80, "-", 70, "PTX ISA §9.7.9.25.3.2 cp.async.commit_group: requires sm_80 or higher"),
    ("cp.async.wait_group", 80, "-", 70, "PTX ISA §9.7.9.25.3.3 cp.async.wait_group: requires sm_80 or higher"),
    ("cp.async.wait_all", 80, "-", 70, "PTX ISA §9.7.9.25.3.3 cp.async.wait_all: requires sm_80 or higher"),
    ("cp.async.mbarrier.arrive", 80, "-", 70, "PTX ISA §9.7.13.15.14 cp.async.mbarrier.arrive: requires sm_80 or higher"),
    ("cp.async.bulk", 90, "-", 80, "PTX ISA §9.7.9.25.4.1 cp.async.bulk: requires sm_90 or higher"),
    ("cp.async.bulk.commit_group", 90, "-", 80, "PTX ISA §9.7.9.25.4.3 cp.async.bulk.commit_group: requires sm_90 or higher"),
    ("cp.async.bulk.wait_group", 90, "-", 80, "PTX ISA §9.7.9.25.4.4 cp.async.bulk.wait_group: requires sm_90 or higher"),
    ("cp.async.bulk.prefetch", 90, "-", 80, "PTX ISA §9.7.9.25.4.2 cp.async.bulk.prefetch: requires sm_90 or higher"),
    ("cp.async.bulk.tensor", 90, "-", 80, "PTX ISA §9.7.9.25.5.1 cp.async.bulk.tensor: requires sm_90 or higher"),
    ("cp.async.bulk.prefetch.tensor", 90, "-", 80, "PTX ISA §9.7.9.25.5.3 cp.async.bulk.prefetch.tensor: requires sm_90 or higher"),
    ("cp.reduce.async.bulk", 90, "-", 80, "PTX ISA §9.7.9.25.4.2 cp.reduce.async.bulk: requires sm_90 or higher"),
    ("cp.reduce.async.bulk.tensor", 90, "-", 80, "PTX ISA §9.7.9.25.5.2 cp.reduce.async.bulk.tensor: requires sm_90 or higher"),
    ("st.async", 90, "-", 81, "PTX ISA §9.7.9.12 st.async: requires sm_90 or higher"),
    ("red.async", 90, "-", 81, "PTX ISA §9.7.13.6 red.async: requires sm_90 or higher"),
    ("st.bulk", 100, "-", 86, "PTX ISA §9.7.9.13 st.bulk: requires sm_100 or higher"),
    ("prefetch.tensormap", 90, "-", 80, "PTX ISA §9.7.9.15 prefetch{.tensormap_space}.tensormap: requires sm_90 or higher"),
    ("prefetch.global.L2::evict_last", 80, "-", 74, "PTX ISA §9.7.9.15 prefetch .L2::evict_last: requires sm_80 or higher"),
    ("prefetch.global.L2::evict_normal", 80, "-", 74, "PTX ISA §9.7.9.15 prefetch .L2::evict_normal: requires sm_80 or higher"),
    ("tensormap.replace", 90, A90 + "," + A_BW, 83,
     "PTX ISA §9.7.9.27 tensormap.replace: requires sm_90a; supported on sm_100a, sm_110a, sm_120a and the families"
     " sm_100f, sm_110f, sm_120f (PTX ISA 8.7+; ptxas 13.0 accepts every a/f target from sm_100)"),
    ("tensormap.cp_fenceproxy", 90, "-", 83, "PTX ISA §9.7.9.26 tensormap.cp_fenceproxy: requires sm_90 or higher"),
    # loads with cache hints (§9.7.9.8)
    ("ld.global.L2::256B", 80, "-", 74, "PTX ISA §9.7.9.8 ld .L2::256B prefetch size: requires sm_80 or higher"),
    ("ld.global.nc.L2::256B", 80, "-", 74, "PTX ISA §9.7.9.8 ld .L2::256B prefetch size: requires sm_80 or higher"),
    ("ld.global.L2::cache_hint", 80, "-", 74, "PTX ISA §9.7.9.8 ld .L2::cache_hint: requires sm_80 or higher"),
    ("ld.global.nc.L2::cache_hint", 80, "-", 74, "PTX ISA §9.7.9.8 ld .L2::cache_hint: requires sm_80 or higher"),
    ("ld.global.L1::evict_last", 70, "-", 74, "PTX ISA §9.7.9.8 ld .L1::evict_last: requires sm_70 or higher"),
    ("ld.global.L1::no_allocate", 70, "-", 74, "PTX ISA §9.7.9.8 ld .L1::no_allocate: requires sm_70 or higher"),
    ("ld.global.v8", 100, "-", 88, "PTX ISA §9.7.9.8 ld .v8 (256-bit) vectors: requires sm_100 or higher"),
    ("st.global.v8", 100, "-", 88, "PTX ISA §9.7.9.10 st .v8 (256-bit) vectors: requires sm_100 or higher"),
    ("createpolicy", 80, "-", 74, "PTX ISA §9.7.9.18 createpolicy: requires sm_80 or higher"),
    ("discard.global.L2", 80, "-", 74, "PTX ISA §9.7.9.17 discard: requires sm_80 or higher"),
    ("applypriority", 80, "-", 74, "PTX ISA §9.7.9.16 applypriority: requires sm_80 or higher"),
    ("mapa", 90, "-", 78, "PTX ISA §9.7.9.19 mapa: requires sm_90 or higher"),
    ("getctarank", 90, "-", 78, "PTX ISA §9.7.9.20 getctarank: requires sm_90 or higher"),
    ("multimem.ld_reduce", 90, "-", 81, "PTX ISA §9.7.9.14 multimem.ld_reduce: requires sm_90 or higher"),
    ("multimem.st", 90, "-", 81, "PTX ISA §9.7.9.14 multimem.st: requires sm_90 or higher"),
    ("multimem.red", 90, "-", 81, "PTX ISA §9.7.9.14 multimem.red: requires sm_90 or higher"),
    # atomics (§9.7.13.5)
    ("atom.global.add.noftz.bf16", 90, "-", 78, "PTX ISA §9.7.13.5 atom .add.noftz.bf16: requires sm_90 or higher"),
    ("atom.global.add.noftz.bf16x2", 90, "-", 78, "PTX ISA §9.7.13.5 atom .add.noftz.bf16x2: requires sm_90 or higher"),
    ("red.global.add.noftz.bf16", 90, "-", 78, "PTX ISA §9.7.13.6 red .add.noftz.bf16: requires sm_90 or higher"),
    ("red.global.add.noftz.bf16x2", 90, "-", 78, "PTX ISA §9.7.13.6 red .add.noftz.bf16x2: requires sm_90 or higher"),
    ("atom.global.v2", 90, "-", 81, "PTX ISA §9.7.13.5 atom vector types (.v2/.v4 .f32/.f16x2): requires sm_90 or higher"),
    ("atom.global.v4", 90, "-", 81, "PTX ISA §9.7.13.5 atom vector types (.v2/.v4 .f32/.f16x2): requires sm_90 or higher"),
    ("red.global.v2", 90, "-", 81, "PTX ISA §9.7.13.6 red vector types: requires sm_90 or higher"),
    ("red.global.v4", 90, "-", 81, "PTX ISA §9.7.13.6 red vector types: requires sm_90 or higher"),
    # barriers and synchronisation
    ("mbarrier.init", 80, "-", 70, "PTX ISA §9.7.13.15.9 mbarrier.init: requires sm_80 or higher"),
    ("mbarrier.inval", 80, "-", 70, "PTX ISA §9.7.13.15.10 mbarrier.inval: requires sm_80 or higher"),
    ("mbarrier.arrive", 80, "-", 70, "PTX ISA §9.7.13.15.13 mbarrier.arrive: requires sm_80 or higher"),
    ("mbarrier.arrive_drop", 80, "-", 70, "PTX ISA §9.7.13.15.14 mbarrier.arrive_drop: requires sm_80 or higher"),
    ("mbarrier.test_wait", 80, "-", 70, "PTX ISA §9.7.13.15.16 mbarrier.test_wait: requires sm_80 or higher"),
    ("mbarrier.test_wait.parity", 80, "-", 71, "PTX ISA §9.7.13.15.16 mbarrier.test_wait.parity: requires sm_80 or higher"),
    ("mbarrier.pending_count", 80, "-", 70, "PTX ISA §9.7.13.15.17 mbarrier.pending_count: requires sm_80 or higher"),
    ("mbarrier.try_wait", 90, "-", 78, "PTX ISA §9.7.13.15.16 mbarrier.try_wait: requires sm_90 or higher"),
    ("mbarrier.arrive.expect_tx", 90, "-", 80, "PTX ISA §9.7.13.15.13 mbarrier.arrive .expect_tx: requires sm_90 or higher"),
    ("mbarrier.expect_tx", 90, "-", 80, "PTX ISA §9.7.13.15.11 mbarrier.expect_tx: requires sm_90 or higher"),
    ("mbarrier.complete_tx", 90, "-", 80, "PTX ISA §9.7.13.15.12 mbarrier.complete_tx: requires sm_90 or higher"),
    ("barrier.cluster", 90, "-", 78, "PTX ISA §9.7.13.4 barrier.cluster: requires sm_90 or higher"),
    ("fence.proxy.async", 90, "-", 80, "PTX ISA §9.7.13.4 membar/fence .proxy.async: requires sm_90 or higher"),
    ("fence.proxy.tensormap::generic", 90, "-", 83, "PTX ISA §9.7.13.4 fence.proxy.tensormap::generic: requires sm_90 or higher"),
    ("fence.mbarrier_init", 90, "-", 80, "PTX ISA §9.7.13.4 fence.mbarrier_init: requires sm_90 or higher"),
    ("fence.proxy.alias", 70, "-", 75, "PTX ISA §9.7.13.4 fence.proxy.alias: requires sm_70 or higher"),
    ("fence.acq_rel", 70, "-", 60, "PTX ISA §9.7.13.4 fence.acq_rel: requires sm_70 or higher"),
    ("fence.sc", 70, "-", 60, "PTX ISA §9.7.13.4 fence.sc: requires sm_70 or higher"),
    ("griddepcontrol", 90, "-", 78, "PTX ISA §9.7.13.13 griddepcontrol: requires sm_90 or higher"),
    ("elect.sync", 90, "-", 80, "PTX ISA §9.7.13.11 elect.sync: requires sm_90 or higher"),
    ("redux.sync", 80, "-", 70, "PTX ISA §9.7.13.12 redux.sync (.b32/.u32/.s32): requires sm_80 or higher"),
    ("redux.sync.min.f32", 100, A_100F, 86, "PTX ISA §9.7.13.12 redux.sync .f32: requires sm_100a, sm_100f family (sm_100a/f, sm_103a/f); ptxas 13.0: \"Instruction 'redux.f32' not supported\" on sm_110a/f, sm_12x"),
    ("redux.sync.max.f32", 100, A_100F, 86, "PTX ISA §9.7.13.12 redux.sync .f32: requires sm_100a, sm_100f family (sm_100a/f, sm_103a/f); ptxas 13.0: \"Instruction 'redux.f32' not supported\" on sm_110a/f, sm_12x"),
    ("redux.sync.min.abs.f32", 100, A_100F, 86, "PTX ISA §9.7.13.12 redux.sync .abs.f32: requires sm_100a, sm_100f family (sm_100a/f, sm_103a/f); ptxas 13.0: \"Instruction 'redux.f32' not supported\" on sm_110a/f, sm_12x"),
    ("redux.sync.max.abs.f32", 100, A_100F, 86, "PTX ISA §9.7.13.12 redux.sync .abs.f32: requires sm_100a, sm_100f family (sm_100a/f, sm_103a/f); ptxas 13.0: \"Instruction 'redux.f32' not supported\" on sm_110a/f, sm_12x"),
    ("redux.sync.min.NaN.f32", 100, A_100F, 86, "PTX ISA §9.7.13.12 redux.sync .NaN.f32: requires sm_100a, sm_100f family (sm_100a/f, sm_103a/f); ptxas 13.0: \"Instruction 'redux.f32' not supported\" on sm_110a/f, sm_12x"),
    ("redux.sync.max.NaN.f32", 100, A_100F, 86, "PTX ISA §9.7.13.12 redux.sync .NaN.f32: requires sm_100a, sm_100f family (sm_100a/f, sm_103a/f); ptxas 13.0: \"Instruction 'redux.f32' not supported\" on sm_110a/f, sm_12x"),
    ("match.any.sync", 70, "-", 60, "PTX ISA §9.7.13.10 match.sync: requires sm_70 or higher"),
    ("match.all.sync", 70, "-", 60, "PTX ISA §9.7.13.10 match.sync: requires sm_70 or higher"),
    ("activemask", 70, "-", 62, "PTX ISA §9.7.13.9 activemask: requires sm_70 or higher"),
    ("nanosleep", 70, "-", 63, "PTX ISA §9.7.19.4 nanosleep: requires sm_70 or higher"),
    ("bar.warp.sync", 70, "-", 60, "PTX ISA §9.7.13.3 bar.warp.sync: requires sm_70 or higher"),
    ("setmaxnreg", 90, "sm_90a," + A_BW, 80, "PTX ISA §9.7.19.6 setmaxnreg: requires sm_90a (and sm_100a/f, sm_120a/f ...)"),
    ("clusterlaunchcontrol", 100, "-", 86, "PTX ISA §9.7.13.16 clusterlaunchcontrol.try_cancel/query_cancel: requires sm_100 or higher"),
    ("vote.sync", 70, "-", 60, "PTX ISA §9.7.13.8 vote.sync: sm_30 and up (the .sync form is the only one from sm_70)"),
    ("shfl.sync", 30, "-", 60, "PTX ISA §9.7.9.6 shfl.sync: requires sm_30 or higher"),
    # warp-level matrix instructions (§9.7.14)
    ("ldmatrix", 75, "-", 65, "PTX ISA §9.7.14.5.15 ldmatrix (.b16): requires sm_75 or higher"),
    ("ldmatrix.sync.aligned.m16n16", 100, A_BW, 86, "PTX ISA §9.7.14.5.15 ldmatrix .m16n16/.b8 shapes: requires sm_100a/sm_101a/sm_120a (families)"),
    ("ldmatrix.sync.aligned.m8n16", 100, A_BW, 86, "PTX ISA §9.7.14.5.15 ldmatrix .m8n16/.b8 shapes: requires sm_100a/sm_101a/sm_120a (families)"),
    ("stmatrix", 90, "-", 78, "PTX ISA §9.7.14.5.16 stmatrix: requires sm_90 or higher"),
    ("movmatrix", 75, "-", 78, "PTX ISA §9.7.14.5.17 movmatrix: requires sm_75 or higher"),
    ("mma.sync.aligned.m8n8k4", 70, "-", 64, "PTX ISA §9.7.14.5.14 mma .m8n8k4 .f16: requires sm_70 or higher"),
    ("mma.sync.aligned.m8n8k4.row.col.f64", 80, "-", 70, "PTX ISA §9.7.14.5.14 mma .m8n8k4 .f64: requires sm_80 or higher"),
    ("mma.sync.aligned.m16n8k8", 75, "-", 65, "PTX ISA §9.7.14.5.14 mma .m16n8k8 .f16: requires sm_75 or higher"),
    ("mma.sync.aligned.m16n8k8.row.col.f32.bf16", 80, "-", 70, "PTX ISA §9.7.14.5.14 mma .m16n8k8 .bf16: requires sm_80 or higher"),
    ("mma.sync.aligned.m16n8k8.row.col.f32.tf32", 80, "-", 70, "PTX ISA §9.7.14.5.14 mma .m16n8k8 .tf32: requires sm_80 or higher"),
    ("mma.sync.aligned.m16n8k4", 80, "-", 70, "PTX ISA §9.7.14.5.14 mma .m16n8k4 .tf32: requires sm_80 or higher"),
    ("mma.sync.aligned.m16n8k16", 80, "-", 70, "PTX ISA §9.7.14.5.14 mma .m16n8k16 (.f16/.bf16/.s8): requires sm_80 or higher"),
    ("mma.sync.aligned.m16n8k32", 80, "-", 70, "PTX ISA §9.7.14.5.14 mma .m16n8k32 (.s8/.s4): requires sm_80 or higher"),
    ("mma.sync.aligned.m16n8k32.row.col.f32.e4m3", 89, "-", 84, "PTX ISA §9.7.14.5.14 mma .m16n8k32 .e4m3/.e5m2: requires sm_89 or higher"),
    ("mma.sync.aligned.m16n8k32.row.col.f32.e5m2", 89, "-", 84, "PTX ISA §9.7.14.5.14 mma .m16n8k32 .e4m3/.e5m2: requires sm_89 or higher"),
    ("mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4", 120, "sm_120a,sm_120f,sm_121a,sm_121f", 87,
     "PTX ISA §9.7.14.5.14 mma .kind::f8f6f4: requires sm_120a (family sm_120f)"),
    ("mma.sync.aligned.m16n8k64", 80, "-", 70, "PTX ISA §9.7.14.5.14 mma .m16n8k64 (.s4): requires sm_80 or higher"),
    ("mma.sync.aligned.m8n8k16", 75, "-", 65, "PTX ISA §9.7.14.5.14 mma .m8n8k16 (.s8): requires sm_75 or higher"),
    ("mma.sync.aligned.m8n8k32", 75, "-", 65, "PTX ISA §9.7.14.5.14 mma .m8n8k32 (.s4): requires sm_75 or higher"),
    ("mma.sync.aligned.m8n8k128", 75, "-", 65, "PTX ISA §9.7.14.5.14 mma .m8n8k128 .b1 .xor: requires sm_75 or higher"),
    ("mma.sync.aligned.m16n8k128", 80, "-", 70, "PTX ISA §9.7.14.5.14 mma .m16n8k128 .b1: requires sm_80 or higher"),
    ("mma.sync.aligned.m16n8k256", 80, "-", 70, "PTX ISA §9.7.14.5.14 mma .m16n8k256 .b1: requires sm_80 or higher"),
    ("mma.sp.sync.aligned", 80, "-", 71, "PTX ISA §9.7.14.6 mma.sp (sparse): requires sm_80 or higher"),
    ("wmma.load", 70, "-", 60, "PTX ISA §9.7.14.4 wmma.load: requires sm_70 or higher"),
    ("wmma.mma", 70, "-", 60, "PTX ISA §9.7.14.4 wmma.mma: requires sm_70 or higher"),
    # warpgroup MMA (§9.7.15)
    ("wgmma.mma_async", 90, A90, 80, "PTX ISA §9.7.15.5.2 wgmma.mma_async: requires sm_90a"),
    ("wgmma.mma_async.sp", 90, A90, 80, "PTX ISA §9.7.15.6 wgmma.mma_async.sp: requires sm_90a"),
    ("wgmma.fence", 90, A90, 80, "PTX ISA §9.7.15.7.1 wgmma.fence: requires sm_90a"),
    ("wgmma.commit_group", 90, A90, 80, "PTX ISA §9.7.15.7.2 wgmma.commit_group: requires sm_90a"),
    ("wgmma.wait_group", 90, A90, 80, "PTX ISA §9.7.15.7.3 wgmma.wait_group: requires sm_90a"),
    # 5th-generation tensor core (§9.7.16)
    ("tcgen05.alloc", 100, TC05, 86, "PTX ISA §9.7.16.7.1 tcgen05.alloc: requires sm_100a/sm_101a (families sm_100f, sm_110f)"),
    ("tcgen05.dealloc", 100, TC05, 86, "PTX ISA §9.7.16.7.1 tcgen05.dealloc: requires sm_100a/sm_101a (families sm_100f, sm_110f)"),
    ("tcgen05.relinquish_alloc_permit", 100, TC05, 86, "PTX ISA §9.7.16.7.1 tcgen05.relinquish_alloc_permit: requires sm_100a/sm_101a (families)"),
    ("tcgen05.ld", 100, TC05, 86, "PTX ISA §9.7.16.8.3 tcgen05.ld: requires sm_100a/sm_101a (families sm_100f, sm_110f)"),
    ("tcgen05.st", 100, TC05, 86, "PTX ISA §9.7.16.8.4 tcgen05.st: requires sm_100a/sm_101a (families sm_100f, sm_110f)"),
    ("tcgen05.wait", 100, TC05, 86, "PTX ISA §9.7.16.8.5 tcgen05.wait: requires sm_100a/sm_101a (families sm_100f, sm_110f)"),
    ("tcgen05.cp", 100, TC05, 86, "PTX ISA §9.7.16.8.6 tcgen05.cp: requires sm_100a/sm_101a (families sm_100f, sm_110f)"),
    ("tcgen05.shift", 100, TC05, 86, "PTX ISA §9.7.16.8.7 tcgen05.shift: requires sm_100a/sm_101a (families sm_100f, sm_110f)"),
    ("tcgen05.mma", 100, TC05, 86, "PTX ISA §9.7.16.10.9 tcgen05.mma: requires sm_100a/sm_101a (families sm_100f, sm_110f)"),
    ("tcgen05.commit", 100, TC05, 86, "PTX ISA §9.7.16.11.1 tcgen05.commit: requires sm_100a/sm_101a (families sm_100f, sm_110f)"),
    ("tcgen05.fence", 100, TC05, 86, "PTX ISA §9.7.16.6.4 tcgen05.fence: requires sm_100a/sm_101a (families sm_100f, sm_110f)"),
    # conversions and arithmetic (§9.7.3, §9.7.4, §9.7.9.21)
    ("cvt.rn.satfinite.e4m3x2", 89, "-", 78, "PTX ISA §9.7.9.21 cvt .e4m3x2: requires sm_89 or higher"),
    ("cvt.rn.satfinite.e5m2x2", 89, "-", 78, "PTX ISA §9.7.9.21 cvt .e5m2x2: requires sm_89 or higher"),
    ("cvt.rn.f16x2.e4m3x2", 89, "-", 78, "PTX ISA §9.7.9.21 cvt from .e4m3x2: requires sm_89 or higher"),
    ("cvt.rn.f16x2.e5m2x2", 89, "-", 78, "PTX ISA §9.7.9.21 cvt from .e5m2x2: requires sm_89 or higher"),
    ("cvt.rn.satfinite.e2m1x2", 100, A_BW, 86, "PTX ISA §9.7.9.21 cvt .e2m1x2 (fp4): requires sm_100a/sm_120a (families)"),
    ("cvt.rn.satfinite.e2m3x2", 100, A_BW, 86, "PTX ISA §9.7.9.21 cvt .e2m3x2 (fp6): requires sm_100a/sm_120a (families)"),
    ("cvt.rn.satfinite.e3m2x2", 100, A_BW, 86, "PTX ISA §9.7.9.21 cvt .e3m2x2 (fp6): requires sm_100a/sm_120a (families)"),
    ("cvt.rz.satfinite.ue8m0x2", 100, A_BW, 86, "PTX ISA §9.7.9.21 cvt .ue8m0x2: requires sm_100a/sm_120a (families)"),
    ("cvt.rp.satfinite.ue8m0x2", 100, A_BW, 86, "PTX ISA §9.7.9.21 cvt .ue8m0x2: requires sm_100a/sm_120a (families)"),
    ("cvt.rna.tf32", 80, "-", 70, "PTX ISA §9.7.9.21 cvt .tf32: requires sm_80 or higher"),
    ("cvt.rn.bf16x2", 80, "-", 70, "PTX ISA §9.7.9.21 cvt .bf16x2.f32: requires sm_80 or higher"),
    ("cvt.rn.bf16", 80, "-", 70, "PTX ISA §9.7.9.21 cvt .bf16.f32: requires sm_80 or higher"),
    ("cvt.rn.f16x2.f32", 80, "-", 70, "PTX ISA §9.7.9.21 cvt .f16x2.f32: requires sm_80 or higher"),
    ("cvt.rn.relu.f16x2.f32", 80, "-", 70, "PTX ISA §9.7.9.21 cvt .relu .f16x2.f32: requires sm_80 or higher"),
    ("cvt.f32.bf16", 80, "-", 70, "PTX ISA §9.7.9.21 cvt .f32.bf16: .bf16 requires sm_80 (ptxas 13.0: \"Feature '.bf16' requires .target sm_80\"; accepted on sm_80)"),
    ("fma.rn.bf16", 80, "-", 70, "PTX ISA §9.7.4.4 fma .bf16: requires sm_80 or higher"),
    ("fma.rn.bf16x2", 80, "-", 70, "PTX ISA §9.7.4.4 fma .bf16x2: requires sm_80 or higher"),
    ("fma.rn.relu", 80, "-", 70, "PTX ISA §9.7.4.4 fma .relu: requires sm_80 or higher"),
    ("add.rn.bf16", 90, "-", 78, "PTX ISA §9.7.4.1 add .bf16: requires sm_90 or higher"),
    ("add.rn.bf16x2", 90, "-", 78, "PTX ISA §9.7.4.1 add .bf16x2: requires sm_90 or higher"),
    ("sub.rn.bf16", 90, "-", 78, "PTX ISA §9.7.4.2 sub .bf16: requires sm_90 or higher"),
    ("mul.rn.bf16", 90, "-", 78, "PTX ISA §9.7.4.3 mul .bf16: requires sm_90 or higher"),
    ("min.NaN", 80, "-", 70, "PTX ISA §9.7.4.9 min .NaN: requires sm_80 or higher"),
    ("max.NaN", 80, "-", 70, "PTX ISA §9.7.4.10 max .NaN: requires sm_80 or higher"),
    ("min.bf16", 80, "-", 70, "PTX ISA §9.7.4.9 min .bf16: requires sm_80 or higher"),
    ("max.bf16", 80, "-", 70, "PTX ISA §9.7.4.10 max .bf16: requires sm_80 or higher"),
    ("min.xorsign.abs", 86, "-", 72, "PTX ISA §9.7.4.9 min .xorsign.abs: requires sm_86 or higher"),
    ("max.xorsign.abs", 86, "-", 72, "PTX ISA §9.7.4.10 max .xorsign.abs: requires sm_86 or higher"),
    ("tanh.approx", 75, "-", 70, "PTX ISA §9.7.3.20 tanh.approx.f32: requires sm_75 or higher"),
    ("tanh.approx.bf16", 90, "-", 78, "PTX ISA §9.7.4.12 tanh.approx .bf16: requires sm_90 or higher"),
    ("ex2.approx.f16", 75, "-", 70, "PTX ISA §9.7.4.13 ex2.approx .f16: requires sm_75 or higher"),
    ("ex2.approx.ftz.bf16", 90, "-", 78, "PTX ISA §9.7.4.13 ex2.approx .bf16: requires sm_90 or higher"),
    ("add.rn.f32x2", 100, "-", 86, "PTX ISA §9.7.3.1 add .f32x2: requires sm_100 or higher"),
    ("add.f32x2", 100, "-", 86, "PTX ISA §9.7.3.1 add .f32x2: requires sm_100 or higher"),
    ("mul.rn.f32x2", 100, "-", 86, "PTX ISA §9.7.3.3 mul .f32x2: requires sm_100 or higher"),
    ("fma.rn.f32x2", 100, "-", 86, "PTX ISA §9.7.3.5 fma .f32x2: requires sm_100 or higher"),
    ("bmsk", 70, "-", 76, "PTX ISA §9.7.1.21 bmsk: requires sm_70 or higher"),
    ("szext", 70, "-", 76, "PTX ISA §9.7.1.22 szext: requires sm_70 or higher"),
    ("dp4a", 61, "-", 50, "PTX ISA §9.7.1.23 dp4a: requires sm_61 or higher"),
    ("dp2a", 61, "-", 50, "PTX ISA §9.7.1.24 dp2a: requires sm_61 or higher"),
    # special registers read with mov (§10): the front-end sees them as operands
    ("%cluster_ctarank", 90, "-", 78, "PTX ISA §10.20 %cluster_ctarank: requires sm_90 or higher"),
    ("%clusterid", 90, "-", 78, "PTX ISA §10.16 %clusterid: requires sm_90 or higher"),
    ("%cluster_nctarank", 90, "-", 78, "PTX ISA §10.21 %cluster_nctarank: requires sm_90 or higher"),
    ("%cluster_ctaid", 90, "-", 78, "PTX ISA §10.18 %cluster_ctaid: requires sm_90 or higher"),
    ("%is_explicit_cluster", 90, "-", 78, "PTX ISA §10.23 %is_explicit_cluster: requires sm_90 or higher"),
]
# Removed PTX forms: the non-.sync shuffles and votes, gone from sm_70 on (PTX ISA §9.7.9.6 shfl
# "shfl is deprecated ... not supported on sm_70 or higher"; §9.7.13.8 vote without .sync).
PTX_REMOVED = [
    ("shfl.up", 70, "PTX ISA §9.7.9.6 shfl (without .sync): not supported on sm_70 and higher"),
    ("shfl.down", 70, "PTX ISA §9.7.9.6 shfl (without .sync): not supported on sm_70 and higher"),
    ("shfl.bfly", 70, "PTX ISA §9.7.9.6 shfl (without .sync): not supported on sm_70 and higher"),
    ("shfl.idx", 70, "PTX ISA §9.7.9.6 shfl (without .sync): not supported on sm_70 and higher"),
    ("vote.all", 70, "PTX ISA §9.7.13.8 vote (without .sync): not supported on sm_70 and higher"),
    ("vote.any", 70, "PTX ISA §9.7.13.8 vote (without .sync): not supported on sm_70 and higher"),
    ("vote.uni", 70, "PTX ISA §9.7.13.8 vote (without .sync): not supported on sm_70 and higher"),
    ("vote.ballot", 70, "PTX ISA §9.7.13.8 vote (without .sync): not supported on sm_70 and higher"),
]


def ptx_rows():
    rows = []
    for feat, sm, spec, isa, src in PTX_ROWS:
        rows.append((feat, "ptx", sm, spec, PTX_TO_CUDA.get(isa, "-"), "-", src))
    for feat, sm, src in PTX_REMOVED:
        rows.append((feat, "deprecated", sm, "-", "-", "-", src))
    return rows


# ------------------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cuda-include", default="/usr/local/cuda/include")
    ap.add_argument("--older-include", help="include/ of an older toolkit (rows with a toolkit range)")
    a = ap.parse_args()
    cpp = find_cpp()
    inc = os.path.realpath(a.cuda_include)
    older = os.path.realpath(a.older_include) if a.older_include else None
    vstr, hrows = header_rows(cpp, inc, older)
    rows = hrows + cccl_rows(inc) + ptx_rows()
    # one row per (feature, range)
    uniq = {}
    for r in rows:
        uniq.setdefault((r[0], r[4], r[5]), r)
    rows = sorted(uniq.values(), key=lambda r: (r[0], r[4] != "-", r[4], r[5]))
    ov = ""
    if older:
        v = toolkit_version(older)
        ov = f" and CUDA {v[0]}.{v[1]}"
    out = sys.stdout
    out.write(
        f"# Generated by scripts/gen-cuda-features.py from the CUDA {vstr} headers{ov}, the cuda::ptx\n"
        "# wrappers of CCCL and cited PTX ISA notes; regenerate for a new toolkit (see the script's --help).\n"
        "# Checked against nvcc by tests/oracle/intr (check_table.py).\n"
        "# feature: identifier as written in code (`ns::name`; `name(T)` = the overload whose first parameter\n"
        "#   has type T, `T` = a template parameter; `nvcuda::wmma::fragment<E>` = fragments of element type\n"
        "#   E), a dotted PTX instruction prefix (matched by the longest prefix of a parsed instruction), or\n"
        "#   a PTX special register (`%clusterid`).\n"
        "# kind: function | type | ptx | deprecated (removed: min_sm is the first sm where it is gone).\n"
        "# min_sm: lowest sm with the feature. arch_specific: `-` (every target >= min_sm has it) or the\n"
        "#   exact comma-separated list of the targets that have it (arch-specific `a`, family `f` targets).\n"
        "# cuda_from/cuda_until: toolkit range [from, until) the row holds for; `-` = unbounded. Header rows\n"
        f"#   compare the toolkits read ({vstr}{ov.replace(' and CUDA ', ', ')}): cuda_from {vstr} on a header row\n"
        "#   means the older headers lacked the name (it may have appeared in a release in between).\n"
        "# source: header:line and the guard around the declaration, the CCCL wrapper's documented form,\n"
        "#   or the PTX ISA section.\n")
    out.write("feature\tkind\tmin_sm\tarch_specific\tcuda_from\tcuda_until\tsource\n")
    for r in rows:
        out.write("\t".join(str(x) for x in r) + "\n")
    print(f"{len(rows)} rows", file=sys.stderr)


if __name__ == "__main__":
    main()
