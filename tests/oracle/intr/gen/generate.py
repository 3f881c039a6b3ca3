#!/usr/bin/env python3
"""Generates the INTR oracle cases: every row of data/cuda_features.tsv that holds for CUDA 13.0, in
every usage form, as one small .cu file per (feature, form).

    python3 tests/oracle/intr/gen/generate.py                  # -> tests/oracle/intr/gen/cases/
    python3 tests/oracle/intr/gen/generate.py --out /tmp/cases --forms kernel,guarded

Uses of the feature:
  function rows   a call with arguments of the declared types. Prototypes come from the CUDA
                  headers: the declaration at the row's `source` header:line (CUDA runtime/fp16/bf16/
                  atomic/mbarrier intrinsics), and, for the cuda::ptx wrappers, the documented form
                  in CCCL's cuda/__ptx/instructions/generated/*.h whose SM list matches the row
                  (the overload that makes min_sm the minimum); wmma, cooperative_groups, awbarrier
                  and the 128-bit atomic templates have hand-written uses (MANUAL below).
  type rows       a variable of the type (wmma fragments, awbarrier, cluster_group), used.
  ptx rows        inline asm of a valid instruction with that prefix (ptx_uses.py).
  deprecated rows a use of the removed intrinsic or PTX form.

Forms (FORMS below): kernel, helper_reached, helper_unreached, guarded, guarded_insufficient,
guarded_ifdef, nv_if_target, nv_if_else_target, template_instantiated, template_uninstantiated,
template_via_macro, host_device, host_only. A form that cannot express a row (an insufficient guard
of a feature every target has, NV_IF_TARGET of a removed form) is skipped for it. Each file starts with
    // feature: <feature as in the tsv>
    // form: <form>
then `// kind:`, `// min_sm:`, `// arch_specific:` (and `// guard:` for the guarded form).

Rows outside CUDA 13.0 (cuda_from/cuda_until) and rows without a valid use are listed in
skipped.tsv beside this script. Output is deterministic (rows and forms sorted).
"""
import argparse
import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.dirname(HERE))
from ptx_uses import PTX, KERNEL_ATTRS  # noqa: E402
from check_table import version_tuple  # noqa: E402  the catalogue's cuda_from/cuda_until, as the table check reads them

CUDA = (13, 0)
FORMS = ["kernel", "helper_reached", "helper_unreached", "guarded", "guarded_insufficient", "guarded_ifdef",
         "nv_if_target", "nv_if_else_target", "template_instantiated", "template_uninstantiated",
         "template_via_macro", "host_device", "host_only"]
# nvcc 13.0's targets, and the NV_PROVIDES_SM_X / NV_HAS_FEATURE_SM_Xa macros its <nv/target> defines
TARGET_SMS = [75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121]
NV_PROVIDES = {35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90, 100, 101, 103, 110, 120}
NV_HAS_FEATURE = {"sm_90a", "sm_100a", "sm_101a"}


class Skip(Exception):
    pass


class Use:
    """A use of a feature: headers, namespace-scope declarations and the statements of a function
    body over `unsigned* out`. DEPV(x) marks the operand that the template forms make dependent on
    T, DEPIN an empty asm input list (a dependent dummy input in the template forms), @T an
    explicit template argument list (<T> in the template forms)."""

    def __init__(self, body, includes=(), decls="", how=""):
        self.body = body.strip("\n")
        self.includes = list(includes)
        self.decls = decls.strip("\n")
        self.how = how


# ----------------------------------------------------------------------------------------------
# the catalogue

def load_table(path):
    rows, header = [], None
    for line in open(path):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        f = line.split("\t")
        if header is None:
            header = f
            continue
        rows.append(dict(zip(header, f)))
    return rows


def applicable(row):
    lo, hi = version_tuple(row["cuda_from"]), version_tuple(row["cuda_until"])
    if lo is not None and CUDA < lo:
        return f"cuda_from {row['cuda_from']} is after CUDA 13.0"
    if hi is not None and CUDA >= hi:
        return f"cuda_until {row['cuda_until']}: not in CUDA 13.0"
    return None


# ----------------------------------------------------------------------------------------------
# helpers

def split_params(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "(<[":
            depth += 1
        elif ch in ")>]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def match_paren(text, i):
    """Index just past the ')' matching the '(' at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return j + 1
    raise ValueError("unbalanced")


TYPE_WORDS = {"unsigned", "signed", "long", "short", "int", "char", "float", "double", "bool", "void", "const",
              "volatile", "__restrict__"}


def param_type_name(p):
    """('const void *', 'ptr') from 'const void *ptr'; a nameless parameter gives name ''."""
    p = p.strip()
    m = re.match(r"^(.*?)([A-Za-z_]\w*)$", p)
    if m and m.group(1).strip() and m.group(2) not in TYPE_WORDS and not m.group(1).strip().endswith("::"):
        return m.group(1).strip(), m.group(2)
    return p, ""


def norm_type(t):
    t = re.sub(r"\bconst\b|\b__restrict__\b|\bvolatile\b", " ", t)
    t = t.replace("&", " ")
    t = re.sub(r"\s*\*\s*", "*", t)
    return re.sub(r"\s+", " ", t).strip()


# ----------------------------------------------------------------------------------------------
# header intrinsics: the declaration at the row's source header:line

INC = "/usr/local/cuda/include"
IMPLICIT = ("sm_20_intrinsics.h", "sm_30_intrinsics.h", "sm_32_intrinsics.h", "sm_60_atomic_functions.h",
            "sm_61_intrinsics.h", "device_atomic_functions.h", "device_functions.h")

VALUE_ARGS = {
    "unsigned": "out[0]", "unsigned int": "out[0]", "uint32_t": "out[0]",
    "int": "(int)out[0]", "unsigned short": "(unsigned short)out[0]", "unsigned short int": "(unsigned short)out[0]",
    "bool": "true", "float": "__uint_as_float(out[0])", "double": "(double)out[0]",
    "size_t": "(size_t)out[0]", "unsigned long long": "0ull", "__mbarrier_token_t": "(__mbarrier_token_t)out[0]",
    "float2": "make_float2(1.f, 2.f)", "float4": "make_float4(1.f, 2.f, 3.f, 4.f)",
    "__half": "__float2half(1.f)", "__half2": "__floats2half2_rn(1.f, 2.f)",
    "__nv_bfloat16": "__float2bfloat16(1.f)", "__nv_bfloat162": "__floats2bfloat162_rn(1.f, 2.f)",
}
POINTER_ARGS = {
    "int*": "(int*)out", "unsigned int*": "out", "unsigned*": "out", "unsigned short*": "(unsigned short*)out",
    "unsigned short int*": "(unsigned short*)out", "double*": "(double*)out", "float2*": "(float2*)out",
    "float4*": "(float4*)out", "__half*": "(__half*)out", "__nv_bfloat16*": "(__nv_bfloat16*)out",
    "__mbarrier_t*": "&mbar",
}


def header_include(h):
    if h.startswith("crt/") and h != "crt/mma.h":
        return []
    if h in IMPLICIT:
        return []
    if h == "crt/mma.h":
        return ["mma.h"]
    if h.startswith("cooperative_groups/"):
        return ["cooperative_groups.h"]
    if h.endswith(".hpp") and os.path.exists(os.path.join(INC, h[:-4] + ".h")):
        return [h[:-4] + ".h"]  # cuda_fp16.hpp is included through cuda_fp16.h only
    return [h]


def header_use(row):
    feat = row["feature"]
    m = re.match(r"^(\S+?):(\d+)\b", row["source"])
    if not m:
        raise Skip("no header:line in the source column")
    hdr, line = m.group(1), int(m.group(2))
    path = os.path.join(INC, hdr)
    if not os.path.exists(path):
        raise Skip(f"{hdr} is not in {INC}")
    lines = open(path, errors="replace").read().splitlines()
    text = "\n".join(lines[line - 1:line + 6])
    name = re.sub(r"\(.*$", "", feat)
    mm = re.search(r"(?<![\w:])" + re.escape(name) + r"\s*\(", text)
    if not mm:
        raise Skip(f"no declaration of {name} at {hdr}:{line}")
    prefix = text[:mm.start()].split("\n")[-1]
    end = match_paren(text, mm.end() - 1)
    params = split_params(text[mm.end():end - 1])
    if params == ["void"]:
        params = []
    args, decls, shared_used = [], [], False
    for p in params:
        if "=" in p:
            break  # defaulted: leave it to its default
        t, pname = param_type_name(p)
        nt = norm_type(t)
        if nt in ("void*",):
            if not shared_used:
                args.append("(void*)sh")
                shared_used = True
            else:
                args.append(f"(void*)(out + {4 * len(args)})")
        elif nt in POINTER_ARGS:
            args.append(POINTER_ARGS[nt])
            if nt == "__mbarrier_t*":
                decls.append("__shared__ __mbarrier_t mbar;")
        elif nt in VALUE_ARGS:
            args.append("0xffffffffu" if "mask" in pname.lower() and nt.startswith("unsigned") else VALUE_ARGS[nt])
        else:
            raise Skip(f"parameter type '{t}' of {name} ({hdr}:{line}) has no argument rule")
    if "(void*)sh" in args:
        decls.insert(0, "__shared__ alignas(16) unsigned sh[64];")
    if args:
        args[0] = f"DEPV({args[0]})"
    call = f"{name}({', '.join(args)})"
    is_void = re.search(r"\bvoid\s*$", prefix) is not None
    body = "\n  ".join(decls + [call + ";" if is_void else f"sink(out, {call});"])
    return Use(body, header_include(hdr), how=f"declaration at {hdr}:{line}")


# ----------------------------------------------------------------------------------------------
# cuda::ptx wrappers: the documented forms in CCCL's generated headers

CCCL = os.path.join(INC, "cccl/cuda/__ptx/instructions/generated")
_CCCL_DOCS = None


def cccl_docs():
    global _CCCL_DOCS
    if _CCCL_DOCS is None:
        _CCCL_DOCS = {}
        for f in sorted(glob.glob(os.path.join(CCCL, "*.h"))):
            text = open(f, errors="replace").read()
            for blk in re.findall(r"/\*(.*?)\*/", text, re.S):
                m = re.search(r"__device__ static inline\s+(.*?)\b(\w+)\s*\(", blk, re.S)
                sm = re.search(r"PTX ISA (\d+),\s*(SM_\w+(?:,\s*SM_\w+)*)", blk)
                if not m or not sm:
                    continue
                end = match_paren(blk, m.end() - 1)
                tmpl = re.search(r"template\s*<(.*?)>\s*\n\s*__device__", blk, re.S)
                _CCCL_DOCS.setdefault(m.group(2), []).append({
                    "ret": m.group(1).strip(), "params": split_params(" ".join(blk[m.end():end - 1].split())),
                    "sms": re.findall(r"SM_(\d+)([af]?)", sm.group(2)), "isa": int(sm.group(1)),
                    "values": dict(re.findall(r"^//\s*\.(\w+)\s*=\s*\{([^}]*)\}", blk, re.M)),
                    "template": tmpl.group(1).strip() if tmpl else "",
                    "file": os.path.basename(f), "ptx": " ".join(blk.strip().splitlines()[0].lstrip("/ ").split())})
    return _CCCL_DOCS


ELEM = {"B8": "cuda::std::uint8_t", "B16": "cuda::std::uint16_t", "B32": "cuda::std::uint32_t",
        "B64": "cuda::std::uint64_t", "uint32_t": "cuda::std::uint32_t", "int32_t": "cuda::std::int32_t",
        "uint64_t": "cuda::std::uint64_t", "uint16_t": "cuda::std::uint16_t", "uint8_t": "cuda::std::uint8_t"}
SPACE = {"shared::cta": "space_shared", "shared": "space_shared", "shared::cluster": "space_cluster",
         "global": "space_global"}


def tag_value(field, values):
    """cuda::ptx::scope_cta from field 'scope' and the documented `.scope = { .cta, .cluster }`."""
    if field not in values:
        raise Skip(f"no documented values for .{field}")
    v = values[field].split(",")[0].strip().lstrip(".")
    if field == "space":
        return "cuda::ptx::" + SPACE[v]
    v = v.replace("::", "_")
    if field == "op" and v in ("and", "or", "xor"):
        v += "_op"
    if not v.startswith(field + "_"):
        v = f"{field}_{v}"
    return "cuda::ptx::" + v


def cccl_args(doc):
    args, decls, dep_ok = [], [], []
    for i, p in enumerate(doc["params"]):
        p = p.strip()
        arr = re.match(r"^(const\s+)?([\w:]+)\s*\(&\s*(\w+)\)\[(\d+)\]$", p)
        if arr:
            et = ELEM.get(arr.group(2))
            if not et:
                raise Skip(f"array parameter of element type {arr.group(2)}")
            decls.append(f"{et} arr{i}[{arr.group(4)}] = {{}};")
            args.append(f"arr{i}")
            dep_ok.append(False)
            continue
        t, _ = param_type_name(p)
        nt = norm_type(t)
        m = re.fullmatch(r"cuda::ptx::(\w+)_t", nt)
        mt = re.fullmatch(r"cuda::ptx::(\w+)_t<(\w+)>", nt)
        if m:
            args.append(f"cuda::ptx::{m.group(1)}")
        elif mt and mt.group(1) == "n32":
            args.append("cuda::ptx::n32_t<0>{}")
        elif mt:
            args.append(tag_value(mt.group(1), doc["values"]))
        elif nt in ("uint32_t", "int32_t", "B32"):
            args.append(f"({ELEM.get(nt, 'cuda::std::uint32_t')})out[0]")
        elif nt in ("uint64_t", "B64"):
            args.append("(cuda::std::uint64_t)out[1]")
        elif nt in ("uint16_t", "B16"):
            args.append("(cuda::std::uint16_t)out[0]")
        elif nt in ("uint8_t", "B8"):
            args.append("(cuda::std::uint8_t)out[0]")
        elif nt == "B128":
            decls.append("longlong2 v128 = make_longlong2(0, 0);")
            args.append("v128")
        elif nt == "bool":
            args.append("true")
        elif nt == "uint64_t*":
            decls.append("__shared__ cuda::std::uint64_t bar64;")
            args.append("&bar64")
        elif nt in ("uint32_t*", "void*") and "const" not in t and "shared" in doc["ptx"] + doc["values"].get("dst", ""):
            # a destination in shared memory (tcgen05.alloc's [dst], a bulk copy's shared::cluster side)
            decls.append("__shared__ alignas(128) cuda::std::uint32_t sm32[64];")
            args.append("sm32" if nt == "uint32_t*" else "(void*)sm32")
        elif nt == "void*":
            args.append(f"({'const ' if 'const' in t else ''}void*)out")
        elif re.fullmatch(r"(B8|B16|B32|B64|uint32_t|uint64_t)\*", nt):
            et = ELEM[nt[:-1]]
            args.append(f"({'const ' if 'const' in t else ''}{et}*)out")
        elif nt == "B128*":
            args.append(f"({'const ' if 'const' in t else ''}longlong2*)out")
        else:
            raise Skip(f"parameter '{p}' has no argument rule")
        dep_ok.append(True)
    decls = list(dict.fromkeys(decls))
    return args, decls, dep_ok


def cccl_use(row):
    feat = row["feature"]
    name = feat.split("::")[-1]
    docs = cccl_docs().get(name)
    if not docs:
        raise Skip("no documented form in CCCL's generated headers")
    lo = int(row["min_sm"])
    specific = row["arch_specific"] != "-"

    def matches(d):
        return any(int(n) == lo and (bool(v) == specific) for n, v in d["sms"])
    last_err = None
    for doc in sorted(docs, key=lambda d: (not matches(d), d["isa"])):
        try:
            args, decls, dep_ok = cccl_args(doc)
        except Skip as e:
            last_err = e
            continue
        if not matches(doc):
            last_err = Skip(f"no documented form of {name} for SM_{lo}")
            continue
        for i, ok in enumerate(dep_ok):
            if ok:
                args[i] = f"DEPV({args[i]})"
                break
        targs = "@T" if not args and doc["template"] == "typename = void" else ""
        ret = doc["ret"].strip()
        if re.fullmatch(r"B\d+", ret) and not any(re.search(r"\b" + ret + r"\b", p) for p in doc["params"]):
            targs = f"<{ELEM[ret]}>"  # a return type that no argument deduces
        call = f"{feat}{targs}({', '.join(args)})"
        stmt = call + ";" if ret == "void" else f"sink(out, {call});"
        sms = ", ".join(f"SM_{n}{v}" for n, v in doc["sms"])
        return Use("\n  ".join(decls + [stmt]), ["cuda/ptx"],
                   how=f"CCCL documented form `{doc['ptx']}` ({sms}, {doc['file']})")
    raise last_err or Skip("no usable documented form")


# ----------------------------------------------------------------------------------------------
# hand-written uses: wmma, cooperative groups, awbarrier, 128-bit atomic templates

W = "nvcuda::wmma::"


def wmma(m, n, k, ab, acc, load_a="out", layout_b="col_major", store=None, op="mma_sync", extra="", fill="0"):
    a_ptr = {"__half": "(const __half*)", "__nv_bfloat16": "(const __nv_bfloat16*)", "double": "(const double*)",
             "float": "(const float*)", "signed char": "(const signed char*)", "unsigned char": "(const unsigned char*)"}
    ab_t = ab if not ab.startswith("precision") and not ab.startswith("experimental") else W + ab
    pcast = a_ptr.get(ab, "(const void*)") if not ab.endswith("tf32") else "(const float*)"
    out_t = {"float": "(float*)out", "__half": "(__half*)out", "int": "(int*)out", "double": "(double*)out"}[acc]
    mma_call = (f"{W}{op}(c, a, b, c{extra});")
    return (f"{W}fragment<{W}matrix_a, {m}, {n}, {k}, {ab_t}, {W}row_major> a;\n"
            f"  {W}fragment<{W}matrix_b, {m}, {n}, {k}, {ab_t}, {W}{layout_b}> b;\n"
            f"  {W}fragment<{W}accumulator, {m}, {n}, {k}, {acc}> c;\n"
            f"  {W}fill_fragment(c, {fill});\n"
            f"  {W}load_matrix_sync(a, DEPV({pcast}out), {k if m != 8 or k != 4 else 4});\n"
            f"  {W}load_matrix_sync(b, {pcast}out, {k if m != 8 or k != 4 else 4});\n"
            f"  {mma_call}\n"
            f"  {W}store_matrix_sync({out_t}, c, {n}, {W}{store or 'mem_row_major'});")


WMMA_HALF = wmma(16, 16, 16, "__half", "float", fill="0.f")
WMMA_I8 = wmma(16, 16, 16, "signed char", "int")
WMMA_U8 = wmma(16, 16, 16, "unsigned char", "int")
WMMA_BF16 = wmma(16, 16, 16, "__nv_bfloat16", "float", fill="0.f")
WMMA_F64 = wmma(8, 8, 4, "double", "double", fill="0.0")
WMMA_TF32 = wmma(16, 16, 8, "precision::tf32", "float", fill="0.f")
WMMA_S4 = wmma(8, 8, 32, "experimental::precision::s4", "int")
WMMA_U4 = wmma(8, 8, 32, "experimental::precision::u4", "int")
WMMA_B1_XOR = wmma(8, 8, 128, "experimental::precision::b1", "int", op="bmma_sync",
                   extra=f", {W}experimental::bmmaBitOpXOR, {W}experimental::bmmaAccumulateOpPOPC")
WMMA_B1_AND = wmma(8, 8, 128, "experimental::precision::b1", "int", op="bmma_sync",
                   extra=f", {W}experimental::bmmaBitOpAND")

CG = "cooperative_groups::"
PAIR = "struct alignas(16) Pair { unsigned long long lo, hi; };"


def pair_atomic(fn, cas):
    args = "DEPV((Pair*)out), Pair{0, 0}, Pair{1, 2}" if cas else "DEPV((Pair*)out), Pair{3, 4}"
    return Use(f"Pair r = {fn}({args});\n  out[threadIdx.x] = (unsigned)r.lo;", decls=PAIR,
               how="hand-written: a 16-byte, 16-aligned trivially copyable type")


def scan_update(fn):
    return Use(
        f"auto tile = {CG}tiled_partition<32>({CG}this_thread_block());\n"
        f"  cuda::atomic<unsigned, cuda::thread_scope_device>& total = *reinterpret_cast<cuda::atomic<unsigned, cuda::thread_scope_device>*>(out);\n"
        f"  out[threadIdx.x + 1] = {CG}{fn}(tile, total, DEPV(out[threadIdx.x + 1]), {CG}plus<unsigned>());",
        ["cuda/atomic", "cooperative_groups.h", "cooperative_groups/scan.h"], how="hand-written")


AWB = "nvcuda::experimental::"
AWB_INIT = Use(
    f"__shared__ {AWB}awbarrier bar;\n  if (threadIdx.x == 0) {AWB}init(&bar, DEPV(32u));\n  __syncthreads();",
    ["cuda_awbarrier.h"], how="hand-written")

MANUAL = {
    "atomicCAS(T*)": pair_atomic("atomicCAS", True),
    "atomicCAS_block(T*)": pair_atomic("atomicCAS_block", True),
    "atomicCAS_system(T*)": pair_atomic("atomicCAS_system", True),
    "atomicExch(T*)": pair_atomic("atomicExch", False),
    "atomicExch_block(T*)": pair_atomic("atomicExch_block", False),
    "atomicExch_system(T*)": pair_atomic("atomicExch_system", False),
    "cooperative_groups::cluster_group": Use(
        f"{CG}cluster_group cl = {CG}this_cluster();\n  out[threadIdx.x] = cl.block_rank() + DEPV(0u);",
        ["cooperative_groups.h"], how="hand-written"),
    "cooperative_groups::this_cluster": Use(
        f"out[threadIdx.x] = {CG}this_cluster().block_rank() + DEPV(0u);", ["cooperative_groups.h"], how="hand-written"),
    "cooperative_groups::labeled_partition": Use(
        f"auto tile = {CG}tiled_partition<32>({CG}this_thread_block());\n"
        f"  auto part = {CG}labeled_partition(tile, DEPV(out[threadIdx.x] & 3));\n"
        f"  out[threadIdx.x] = part.thread_rank();", ["cooperative_groups.h"], how="hand-written"),
    "cooperative_groups::inclusive_scan_update": scan_update("inclusive_scan_update"),
    "cooperative_groups::exclusive_scan_update": scan_update("exclusive_scan_update"),
    "cooperative_groups::reduce_update_async": Use(
        f"auto tile = {CG}tiled_partition<32>({CG}this_thread_block());\n"
        f"  cuda::atomic<unsigned, cuda::thread_scope_device>& total = *reinterpret_cast<cuda::atomic<unsigned, cuda::thread_scope_device>*>(out);\n"
        f"  {CG}reduce_update_async(tile, total, DEPV(out[threadIdx.x + 1]), {CG}plus<unsigned>());",
        ["cuda/atomic", "cooperative_groups.h", "cooperative_groups/reduce.h"], how="hand-written"),
    # The barrier type and its init() have one use: a __shared__ barrier, initialised.
    "nvcuda::experimental::awbarrier": AWB_INIT,
    "nvcuda::experimental::init": AWB_INIT,
    "nvcuda::experimental::inval": Use(
        f"__shared__ {AWB}awbarrier bar;\n  {AWB}inval(DEPV(&bar));", ["cuda_awbarrier.h"], how="hand-written"),
    "nvcuda::wmma::helper_traits": Use(
        f"typename {W}helper_traits<float>::element_type v = DEPV(__uint_as_float(out[0]));\n"
        f"  out[threadIdx.x] = __float_as_uint(v);", ["mma.h"], how="hand-written"),
    "nvcuda::wmma::__float_to_tf32": Use(
        f"out[threadIdx.x] = __float_as_uint({W}__float_to_tf32(DEPV(__uint_as_float(out[threadIdx.x]))));",
        ["mma.h"], how="hand-written"),
}
for _f in ["accumulator", "col_major", "row_major", "matrix_a", "matrix_b", "mem_row_major", "fragment",
           "fragment<__half>", "fragment<float>", "fill_fragment", "load_matrix_sync", "mma_sync",
           "store_matrix_sync"]:
    MANUAL[W + _f] = Use(WMMA_HALF, ["mma.h"], how="hand-written: 16x16x16 __half wmma with a float accumulator")
MANUAL[W + "mem_col_major"] = Use(WMMA_HALF.replace("mem_row_major", "mem_col_major"), ["mma.h"], how="hand-written")
for _f, _b in [("fragment<int>", WMMA_I8), ("fragment<signed char>", WMMA_I8), ("fragment<unsigned char>", WMMA_U8),
               ("store_matrix_sync(int*)", WMMA_I8), ("fragment<__nv_bfloat16>", WMMA_BF16),
               ("fragment<double>", WMMA_F64), ("store_matrix_sync(double*)", WMMA_F64),
               ("precision::tf32", WMMA_TF32), ("fragment<precision::tf32>", WMMA_TF32),
               ("experimental::precision::s4", WMMA_S4), ("fragment<experimental::precision::s4>", WMMA_S4),
               ("experimental::precision::u4", WMMA_U4), ("fragment<experimental::precision::u4>", WMMA_U4),
               ("experimental::precision::b1", WMMA_B1_XOR), ("fragment<experimental::precision::b1>", WMMA_B1_XOR),
               ("bmma_sync", WMMA_B1_XOR), ("experimental::bmmaBitOpXOR", WMMA_B1_XOR),
               ("experimental::bmmaAccumulateOpPOPC", WMMA_B1_XOR), ("experimental::bmmaBitOpAND", WMMA_B1_AND)]:
    MANUAL[W + _f] = Use(_b, ["mma.h"], how="hand-written wmma")


def use_for(row):
    feat, kind = row["feature"], row["kind"]
    if feat in MANUAL:
        return MANUAL[feat]
    if feat in PTX:
        return Use(PTX[feat], how="hand-written inline PTX (ptx_uses.py)")
    if kind == "ptx" or (kind == "deprecated" and ("." in feat or feat.startswith("%"))):
        raise Skip("no inline-PTX use written for this prefix")
    if feat.startswith("cuda::ptx::"):
        return cccl_use(row)
    if kind in ("function", "deprecated"):
        return header_use(row)
    raise Skip(f"no use rule for a {kind} row")


# ----------------------------------------------------------------------------------------------
# forms

def guard_expr(row):
    lo = int(row["min_sm"]) * 10
    if row["kind"] == "deprecated":
        return f"defined(__CUDA_ARCH__) && __CUDA_ARCH__ < {lo}"
    if row["arch_specific"] == "-":
        return f"defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= {lo}"
    by = {}
    for t in row["arch_specific"].split(","):
        m = re.fullmatch(r"sm_(\d+)([af])", t.strip())
        by.setdefault(int(m.group(1)) * 10, set()).add(m.group(2))
    parts = []
    for arch in sorted(by):
        v = by[arch]
        if v == {"a", "f"}:
            parts.append(f"__CUDA_ARCH_FAMILY_SPECIFIC__ == {arch}")
        elif v == {"a"}:
            parts.append(f"__CUDA_ARCH_SPECIFIC__ == {arch}")
        else:
            parts.append(f"(__CUDA_ARCH_FAMILY_SPECIFIC__ == {arch} && !defined(__CUDA_ARCH_SPECIFIC__))")
    return "defined(__CUDA_ARCH__) && (" + " || ".join(parts) + ")"


def insufficient_guard(row):
    """A guard that lets some target without the feature through: the arch one below min_sm, or, for
    an arch-specific feature, the plain `__CUDA_ARCH__ >= X` that also admits sm_X without `a`."""
    if row["kind"] == "deprecated":
        raise Skip("no insufficient guard for a removed form")
    lo = int(row["min_sm"])
    if row["arch_specific"] != "-":
        return f"defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= {lo * 10}"
    below = [t for t in TARGET_SMS if t < lo]
    if not below:
        raise Skip("every target has the feature")
    return f"defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= {below[-1] * 10}"


def nv_target_query(row):
    """The <nv/target> query of the row's availability: NV_PROVIDES_SM_<min_sm>, or for an
    arch-specific row NV_HAS_FEATURE_SM_<first listed target that has such a macro>."""
    if row["kind"] == "deprecated":
        raise Skip("<nv/target> has no query for a removed form")
    if row["arch_specific"] != "-":
        for t in (x.strip() for x in row["arch_specific"].split(",")):
            if t in NV_HAS_FEATURE:
                return "NV_HAS_FEATURE_SM_" + t[3:]
        raise Skip("no NV_HAS_FEATURE_SM_ macro for its targets")
    lo = int(row["min_sm"])
    if lo not in NV_PROVIDES:
        raise Skip(f"no NV_PROVIDES_SM_{lo}")
    return f"NV_PROVIDES_SM_{lo}"


def expand(body, dependent):
    """Resolve the DEPV(...)/DEPIN/@T markers for a plain or a template form."""
    out, i = "", 0
    while True:
        j = body.find("DEPV(", i)
        if j < 0:
            out += body[i:]
            break
        end = match_paren(body, j + 4)
        inner = body[j + 5:end - 1]
        out += body[i:j] + (f"dep<T>({inner})" if dependent else inner)
        i = end
    out = out.replace("DEPIN", "\"r\"(dep<T>(0u))" if dependent else "")
    out = out.replace("@T", "<T>" if dependent else "")
    return out


SINK = ("template <typename V>\n"
        "__host__ __device__ inline void sink(unsigned* out, const V& v) { *reinterpret_cast<V*>(out + 8) = v; }")
DEP = ("template <typename T, typename U>\n"
       "__host__ __device__ inline U dep(U u) { return u; }  // makes an operand dependent on T")
FALLBACK = "out[threadIdx.x] = 0;"


def render(row, use, form):
    feat = row["feature"]
    dependent = form.startswith("template_")
    body = expand(use.body, dependent)
    attrs = KERNEL_ATTRS.get(feat, "")
    kattr = f"{attrs} " if attrs else ""
    head = [f"// feature: {feat}", f"// form: {form}",
            f"// kind: {row['kind']}; min_sm: {row['min_sm']}; arch_specific: {row['arch_specific']}"]
    guard = {"guarded": lambda: guard_expr(row), "guarded_insufficient": lambda: insufficient_guard(row),
             "guarded_ifdef": lambda: "defined(__CUDA_ARCH__)",
             "nv_if_target": lambda: nv_target_query(row), "nv_if_else_target": lambda: nv_target_query(row)}
    if form in guard:
        head.append(f"// guard: {guard[form]()}")
    head.append(f"// use: {use.how}" if use.how else "// use: -")
    head.append("// generated by tests/oracle/intr/gen/generate.py")
    includes = use.includes + (["nv/target"] if form.startswith("nv_if") and "nv/target" not in use.includes else [])
    code = [f"#include <{h}>" for h in includes]
    if code:
        code.append("")
    if "sink(" in use.body:
        code += [SINK, ""]
    if dependent:
        code += [DEP, ""]
    if use.decls:
        code += [use.decls, ""]
    ind = "  " + body  # body lines already carry their own two-space continuation indent
    kernel_fallback = f"__global__ void {kattr}k(unsigned* out) {{ {FALLBACK} }}"
    if form == "kernel":
        code += [f"__global__ void {kattr}k(unsigned* out) {{", ind, "}"]
    elif form == "helper_reached":
        code += ["__device__ void use_feature(unsigned* out) {", ind, "}",
                 f"__global__ void {kattr}k(unsigned* out) {{ use_feature(out); }}"]
    elif form == "helper_unreached":
        code += ["__device__ void use_feature(unsigned* out) {", ind, "}", kernel_fallback]
    elif form == "guarded":
        code += [f"__global__ void {kattr}k(unsigned* out) {{", f"#if {guard_expr(row)}", ind, "#else",
                 f"  {FALLBACK}", "#endif", "}"]
    elif form in ("guarded_insufficient", "guarded_ifdef"):
        code += [f"__global__ void {kattr}k(unsigned* out) {{", f"#if {guard[form]()}", ind, "#else",
                 f"  {FALLBACK}", "#endif", "}"]
    elif form == "nv_if_target":
        code += [f"__global__ void {kattr}k(unsigned* out) {{", f"  NV_IF_TARGET({guard[form]()}, (", ind, "  ))",
                 f"  {FALLBACK}", "}"]
    elif form == "nv_if_else_target":
        code += [f"__global__ void {kattr}k(unsigned* out) {{", f"  NV_IF_ELSE_TARGET({guard[form]()}, (", ind,
                 "  ), (", f"    {FALLBACK}", "  ))", "}"]
    elif form == "template_instantiated":
        code += ["template <typename T>", "__device__ void use_feature(unsigned* out) {", ind, "}",
                 f"__global__ void {kattr}k(unsigned* out) {{ use_feature<int>(out); }}"]
    elif form == "template_uninstantiated":
        code += ["template <typename T>", "__device__ void use_feature(unsigned* out) {", ind, "}", kernel_fallback]
    elif form == "template_via_macro":
        code += ["template <typename T>", f"__global__ void {kattr}k(unsigned* out) {{", ind, "}", "",
                 "// like AT_DISPATCH_FLOATING_TYPES: a switch over the scalar type, each case calling the lambda",
                 "#define DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) \\",
                 "  switch (TYPE) { \\",
                 "    case 0: { using scalar_t = float; __VA_ARGS__(); break; } \\",
                 "    case 1: { using scalar_t = double; __VA_ARGS__(); break; } \\",
                 "    default: break; \\",
                 "  }",
                 "",
                 "void launch(int type, unsigned* out) {",
                 "  DISPATCH_FLOATING_TYPES(type, \"k\", [&] { k<scalar_t><<<1, 128>>>(out); });",
                 "}"]
    elif form == "host_device":
        code += ["__host__ __device__ void use_feature(unsigned* out) {", ind, "}",
                 f"__global__ void {kattr}k(unsigned* out) {{ use_feature(out); }}"]
    elif form == "host_only":
        code += ["void use_feature(unsigned* out) {", ind, "}", kernel_fallback,
                 "int main() { unsigned buf[64] = {}; use_feature(buf); return 0; }"]
    else:
        raise ValueError(form)
    return "\n".join(head + code) + "\n"


def sanitise(feat):
    s = feat.replace("%", "pct_").replace("::", "__").replace("*", "_ptr").replace(" ", "_")
    s = re.sub(r"[^A-Za-z0-9_.]+", "_", s)
    return re.sub(r"_+$", "", s)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--table", default=os.path.join(ROOT, "data", "cuda_features.tsv"))
    ap.add_argument("--out", default=os.path.join(HERE, "cases"), help="case directory (emptied of *.cu first)")
    ap.add_argument("--skipped", default=os.path.join(HERE, "skipped.tsv"))
    ap.add_argument("--forms", help="comma-separated subset of " + ",".join(FORMS))
    ap.add_argument("--features", help="regex: only features matching it")
    a = ap.parse_args()
    forms = a.forms.split(",") if a.forms else FORMS
    for f in forms:
        if f not in FORMS:
            sys.exit(f"unknown form {f}")

    rows = sorted(load_table(a.table), key=lambda r: r["feature"])
    used, skipped = [], []
    for row in rows:
        if a.features and not re.search(a.features, row["feature"]):
            continue
        why = applicable(row)
        if why:
            skipped.append((row["feature"], row["kind"], why))
            continue
        try:
            used.append((row, use_for(row)))
        except Skip as e:
            skipped.append((row["feature"], row["kind"], str(e)))

    os.makedirs(a.out, exist_ok=True)
    for f in glob.glob(os.path.join(a.out, "*.cu")):
        os.remove(f)
    names, written = {}, 0
    for row, use in used:
        base = sanitise(row["feature"])
        if base in names and names[base] != row["feature"]:
            sys.exit(f"file name clash: {row['feature']} and {names[base]} -> {base}")
        names[base] = row["feature"]
        for form in forms:
            try:
                text = render(row, use, form)
            except Skip as e:
                skipped.append((row["feature"], row["kind"], f"{form}: {e}"))
                continue
            with open(os.path.join(a.out, f"{form}__{base}.cu"), "w") as f:
                f.write(text)
            written += 1
    with open(a.skipped, "w") as f:
        f.write("# rows of data/cuda_features.tsv that generate.py writes no case for (CUDA 13.0)\n")
        f.write("feature\tkind\treason\n")
        for feat, kind, why in skipped:
            f.write(f"{feat}\t{kind}\t{why}\n")
    n_rows = len(used) + sum(":" not in why for _, _, why in skipped)
    print(f"rows used: {len(used)} of {n_rows}, skipped rows and forms: {len(skipped)} (see {os.path.relpath(a.skipped)}), "
          f"forms: {len(forms)}, cases written: {written} in {os.path.relpath(a.out)}")


if __name__ == "__main__":
    main()
