"""Hand-written uses of the PTX rows of data/cuda_features.tsv (kind ptx, and the removed PTX forms of
kind deprecated): one minimal, otherwise valid inline-asm statement (or a few) per row, written so
that the row's dotted prefix is the longest catalogue prefix of the instruction it exercises.

Body conventions (see generate.py): `out` is an `unsigned*` in global memory; DEPV(x) marks the
operand that becomes dependent on the template parameter in the template forms; DEPIN stands for
the input list of an asm statement that has no other input (empty, or a dependent dummy operand).
"""

# A shared buffer and an mbarrier, with their 32-bit shared-window addresses.
SMEM = ("__shared__ alignas(128) unsigned long long sbuf[64];\n"
        "  unsigned sa = (unsigned)__cvta_generic_to_shared(sbuf);\n")
BAR = ("__shared__ alignas(8) unsigned long long bar;\n"
       "  unsigned ba = (unsigned)__cvta_generic_to_shared(&bar);\n")
TMEM = ("__shared__ unsigned taddr;\n"
        "  unsigned tsa = (unsigned)__cvta_generic_to_shared(&taddr);\n")


def unary(instr, cons, src, cast=""):
    """d = instr(a) with one output and one input of constraint `cons` (h/r/l/f/d)."""
    t = {"h": "unsigned short", "r": "unsigned", "l": "unsigned long long", "f": "float", "d": "double"}[cons]
    return (f"{t} r;\n"
            f"  asm volatile(\"{instr} %0, %1;\" : \"={cons}\"(r) : \"{cons}\"(DEPV(({t}){src})));\n"
            f"  out[threadIdx.x] = (unsigned)r;")


def binary(instr, cons, n=2, out_cons=None):
    """d = instr(a, b[, c]) on operands of constraint `cons`."""
    t = {"h": "unsigned short", "r": "unsigned", "l": "unsigned long long", "f": "float", "d": "double"}[cons]
    oc = out_cons or cons
    ot = {"h": "unsigned short", "r": "unsigned", "l": "unsigned long long", "f": "float", "d": "double"}[oc]
    ops = ", ".join(f"%{i + 1}" for i in range(n))
    ins = ", ".join([f"\"{cons}\"(DEPV(({t})out[0]))"] + [f"\"{cons}\"(({t})out[{i}])" for i in range(1, n)])
    return (f"{ot} r;\n"
            f"  asm volatile(\"{instr} %0, {ops};\" : \"={oc}\"(r) : {ins});\n"
            f"  out[threadIdx.x] = (unsigned)r;")


def simple(instr, clobber=True):
    """An instruction without operands."""
    clob = ' : "memory"' if clobber else ''
    return 'asm volatile("' + instr + '" : : DEPIN' + clob + ');'


def sreg(reg):
    return (f"unsigned r;\n"
            f"  asm volatile(\"mov.u32 %0, %%{reg};\" : \"=r\"(r) : DEPIN);\n"
            f"  out[threadIdx.x] = r;")


def mma(instr, d, a, b, dcons="f", abcons="r", dtype="float"):
    """mma.sync with d (== c) accumulator registers and a/b input registers."""
    ds = ", ".join(f"%{i}" for i in range(d))
    as_ = ", ".join(f"%{d + i}" for i in range(a))
    bs = ", ".join(f"%{d + a + i}" for i in range(b))
    outs = ", ".join(f"\"+{dcons}\"(acc[{i}])" for i in range(d))
    ins = ", ".join([f"\"{abcons}\"(DEPV(out[0]))"] + [f"\"{abcons}\"(out[{i}])" for i in range(1, a + b)])
    return (f"{dtype} acc[{d}] = {{}};\n"
            f"  asm volatile(\"{instr} {{{ds}}}, {{{as_}}}, {{{bs}}}, {{{ds}}};\"\n"
            f"               : {outs}\n"
            f"               : {ins});\n"
            f"  out[threadIdx.x] = (unsigned)acc[0];")


def mbar_pred(instr_fmt):
    """A predicate-producing mbarrier wait (instr_fmt gets the [addr] and the last operand)."""
    return (BAR +
            "  unsigned long long state = 0; unsigned done;\n"
            "  asm volatile(\"{\\n .reg .pred p;\\n " + instr_fmt + "\\n selp.u32 %0, 1, 0, p;\\n}\"\n"
            "               : \"=r\"(done) : \"r\"(DEPV(ba)), \"l\"(state) : \"memory\");\n"
            "  out[threadIdx.x] = done;")


def vote_legacy(mode):
    if mode == "ballot":
        return ("unsigned r;\n"
                "  asm volatile(\"{\\n .reg .pred q;\\n setp.ne.u32 q, %1, 0;\\n vote.ballot.b32 %0, q;\\n}\" "
                ": \"=r\"(r) : \"r\"(DEPV(out[threadIdx.x])));\n"
                "  out[threadIdx.x] = r;")
    return ("unsigned r;\n"
            f"  asm volatile(\"{{\\n .reg .pred q, s;\\n setp.ne.u32 q, %1, 0;\\n vote.{mode}.pred s, q;\\n"
            f" selp.u32 %0, 1, 0, s;\\n}}\" : \"=r\"(r) : \"r\"(DEPV(out[threadIdx.x])));\n"
            "  out[threadIdx.x] = r;")


def shfl_legacy(mode):
    c = "0x0" if mode == "up" else "0x1f"
    return ("unsigned r;\n"
            f"  asm volatile(\"shfl.{mode}.b32 %0, %1, 1, {c};\" : \"=r\"(r) : \"r\"(DEPV(out[threadIdx.x])));\n"
            "  out[threadIdx.x] = r;")


def red_f32(instr):
    return ("float r;\n"
            f"  asm volatile(\"{instr} %0, %1, 0xffffffff;\" : \"=f\"(r) : \"f\"(DEPV(__uint_as_float(out[threadIdx.x]))));\n"
            "  out[threadIdx.x] = __float_as_uint(r);")


def cvt_x2(instr, cons="h"):
    t = "unsigned short" if cons == "h" else "unsigned"
    return (f"{t} r;\n"
            f"  asm volatile(\"{instr} %0, %1, %2;\" : \"={cons}\"(r) : \"f\"(DEPV(__uint_as_float(out[0]))), \"f\"(__uint_as_float(out[1])));\n"
            "  out[threadIdx.x] = (unsigned)r;")


TC_ALLOC = (TMEM +
            "  asm volatile(\"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;\" : : \"r\"(DEPV(tsa)) : \"memory\");\n"
            "  out[threadIdx.x] = taddr;")

PTX = {
    # special registers
    "%cluster_ctaid": sreg("cluster_ctaid.x"),
    "%cluster_ctarank": sreg("cluster_ctarank"),
    "%cluster_nctarank": sreg("cluster_nctarank"),
    "%clusterid": sreg("clusterid.x"),
    "%is_explicit_cluster": (
        "unsigned r;\n"
        "  asm volatile(\"{\\n .reg .pred p;\\n mov.pred p, %%is_explicit_cluster;\\n selp.u32 %0, 1, 0, p;\\n}\" : \"=r\"(r) : DEPIN);\n"
        "  out[threadIdx.x] = r;"),
    "activemask": "unsigned r;\n  asm volatile(\"activemask.b32 %0;\" : \"=r\"(r) : DEPIN);\n  out[threadIdx.x] = r;",
    # packed and bf16 arithmetic
    "add.f32x2": binary("add.f32x2", "l"),
    "add.rn.f32x2": binary("add.rn.f32x2", "l"),
    "mul.rn.f32x2": binary("mul.rn.f32x2", "l"),
    "fma.rn.f32x2": binary("fma.rn.f32x2", "l", 3),
    "add.rn.bf16": binary("add.rn.bf16", "h"),
    "add.rn.bf16x2": binary("add.rn.bf16x2", "r"),
    "sub.rn.bf16": binary("sub.rn.bf16", "h"),
    "mul.rn.bf16": binary("mul.rn.bf16", "h"),
    "fma.rn.bf16": binary("fma.rn.bf16", "h", 3),
    "fma.rn.bf16x2": binary("fma.rn.bf16x2", "r", 3),
    "fma.rn.relu": binary("fma.rn.relu.f16", "h", 3),
    "max.NaN": binary("max.NaN.f32", "f"),
    "min.NaN": binary("min.NaN.f32", "f"),
    "max.bf16": binary("max.bf16", "h"),
    "min.bf16": binary("min.bf16", "h"),
    "max.xorsign.abs": binary("max.xorsign.abs.f16", "h"),
    "min.xorsign.abs": binary("min.xorsign.abs.f16", "h"),
    "bmsk": binary("bmsk.clamp.b32", "r"),
    "szext": binary("szext.wrap.u32", "r"),
    "dp2a": binary("dp2a.lo.u32.u32", "r", 3),
    "dp4a": binary("dp4a.u32.u32", "r", 3),
    "tanh.approx": unary("tanh.approx.f32", "f", "out[threadIdx.x]"),
    "tanh.approx.bf16": unary("tanh.approx.bf16", "h", "out[threadIdx.x]"),
    "ex2.approx.f16": unary("ex2.approx.f16", "h", "out[threadIdx.x]"),
    "ex2.approx.ftz.bf16": unary("ex2.approx.ftz.bf16", "h", "out[threadIdx.x]"),
    # conversions
    "cvt.f32.bf16": unary("cvt.f32.bf16", "h", "out[threadIdx.x]").replace(
        "unsigned short r;", "float r;").replace("\"=h\"(r)", "\"=f\"(r)"),
    "cvt.rn.bf16": unary("cvt.rn.bf16.f32", "f", "out[threadIdx.x]").replace(
        "float r;", "unsigned short r;").replace("\"=f\"(r)", "\"=h\"(r)"),
    "cvt.rn.bf16x2": cvt_x2("cvt.rn.bf16x2.f32", "r"),
    "cvt.rn.f16x2.f32": cvt_x2("cvt.rn.f16x2.f32", "r"),
    "cvt.rn.relu.f16x2.f32": cvt_x2("cvt.rn.relu.f16x2.f32", "r"),
    "cvt.rn.f16x2.e4m3x2": unary("cvt.rn.f16x2.e4m3x2", "h", "out[threadIdx.x]").replace(
        "unsigned short r;", "unsigned r;").replace("\"=h\"(r)", "\"=r\"(r)"),
    "cvt.rn.f16x2.e5m2x2": unary("cvt.rn.f16x2.e5m2x2", "h", "out[threadIdx.x]").replace(
        "unsigned short r;", "unsigned r;").replace("\"=h\"(r)", "\"=r\"(r)"),
    "cvt.rn.satfinite.e4m3x2": cvt_x2("cvt.rn.satfinite.e4m3x2.f32"),
    "cvt.rn.satfinite.e5m2x2": cvt_x2("cvt.rn.satfinite.e5m2x2.f32"),
    "cvt.rn.satfinite.e2m3x2": cvt_x2("cvt.rn.satfinite.e2m3x2.f32"),
    "cvt.rn.satfinite.e3m2x2": cvt_x2("cvt.rn.satfinite.e3m2x2.f32"),
    "cvt.rz.satfinite.ue8m0x2": cvt_x2("cvt.rz.satfinite.ue8m0x2.f32"),
    "cvt.rp.satfinite.ue8m0x2": cvt_x2("cvt.rp.satfinite.ue8m0x2.f32"),
    "cvt.rn.satfinite.e2m1x2": (
        "unsigned short r;\n"
        "  asm volatile(\"{\\n .reg .b8 t;\\n cvt.rn.satfinite.e2m1x2.f32 t, %1, %2;\\n cvt.u16.u8 %0, t;\\n}\"\n"
        "               : \"=h\"(r) : \"f\"(DEPV(__uint_as_float(out[0]))), \"f\"(__uint_as_float(out[1])));\n"
        "  out[threadIdx.x] = r;"),
    "cvt.rna.tf32": unary("cvt.rna.tf32.f32", "f", "out[threadIdx.x]").replace(
        "float r;", "unsigned r;").replace("\"=f\"(r)", "\"=r\"(r)"),
    # warp-level
    "bar.warp.sync": "asm volatile(\"bar.warp.sync %0;\" : : \"r\"(DEPV(0xffffffffu)) : \"memory\");",
    "match.all.sync": (
        "unsigned r;\n"
        "  asm volatile(\"match.all.sync.b32 %0, %1, 0xffffffff;\" : \"=r\"(r) : \"r\"(DEPV(out[threadIdx.x])));\n"
        "  out[threadIdx.x] = r;"),
    "match.any.sync": (
        "unsigned r;\n"
        "  asm volatile(\"match.any.sync.b32 %0, %1, 0xffffffff;\" : \"=r\"(r) : \"r\"(DEPV(out[threadIdx.x])));\n"
        "  out[threadIdx.x] = r;"),
    "shfl.sync": (
        "unsigned r;\n"
        "  asm volatile(\"shfl.sync.bfly.b32 %0, %1, 1, 0x1f, 0xffffffff;\" : \"=r\"(r) : \"r\"(DEPV(out[threadIdx.x])));\n"
        "  out[threadIdx.x] = r;"),
    "vote.sync": (
        "unsigned r;\n"
        "  asm volatile(\"{\\n .reg .pred q;\\n setp.ne.u32 q, %1, 0;\\n vote.sync.ballot.b32 %0, q, 0xffffffff;\\n}\"\n"
        "               : \"=r\"(r) : \"r\"(DEPV(out[threadIdx.x])));\n"
        "  out[threadIdx.x] = r;"),
    "redux.sync": (
        "unsigned r;\n"
        "  asm volatile(\"redux.sync.add.u32 %0, %1, 0xffffffff;\" : \"=r\"(r) : \"r\"(DEPV(out[threadIdx.x])));\n"
        "  out[threadIdx.x] = r;"),
    "redux.sync.max.f32": red_f32("redux.sync.max.f32"),
    "redux.sync.min.f32": red_f32("redux.sync.min.f32"),
    "redux.sync.max.abs.f32": red_f32("redux.sync.max.abs.f32"),
    "redux.sync.min.abs.f32": red_f32("redux.sync.min.abs.f32"),
    "redux.sync.max.NaN.f32": red_f32("redux.sync.max.NaN.f32"),
    "redux.sync.min.NaN.f32": red_f32("redux.sync.min.NaN.f32"),
    "elect.sync": (
        "unsigned lane = 0, pred = 0;\n"
        "  asm volatile(\"{\\n .reg .pred P;\\n elect.sync %0|P, %2;\\n selp.u32 %1, 1, 0, P;\\n}\"\n"
        "               : \"=r\"(lane), \"=r\"(pred) : \"r\"(DEPV(0xffffffffu)));\n"
        "  out[threadIdx.x] = lane + pred;"),
    "nanosleep": "asm volatile(\"nanosleep.u32 %0;\" : : \"r\"(DEPV(100u)));",
    # removed (no .sync) warp forms
    "shfl.bfly": shfl_legacy("bfly"),
    "shfl.down": shfl_legacy("down"),
    "shfl.idx": shfl_legacy("idx"),
    "shfl.up": shfl_legacy("up"),
    "vote.all": vote_legacy("all"),
    "vote.any": vote_legacy("any"),
    "vote.uni": vote_legacy("uni"),
    "vote.ballot": vote_legacy("ballot"),
    # fences and barriers
    "fence.acq_rel": simple("fence.acq_rel.gpu;"),
    "fence.sc": simple("fence.sc.gpu;"),
    "fence.proxy.alias": simple("fence.proxy.alias;"),
    "fence.proxy.async": simple("fence.proxy.async.shared::cta;"),
    "fence.proxy.tensormap::generic": simple("fence.proxy.tensormap::generic.release.gpu;"),
    "fence.mbarrier_init": simple("fence.mbarrier_init.release.cluster;"),
    "barrier.cluster": simple("barrier.cluster.arrive.aligned;") + "\n  " + simple("barrier.cluster.wait.aligned;"),
    "griddepcontrol": simple("griddepcontrol.wait;") + "\n  " + simple("griddepcontrol.launch_dependents;"),
    # cluster addressing
    "mapa": (
        "__shared__ unsigned s;\n"
        "  unsigned a = (unsigned)__cvta_generic_to_shared(&s), r;\n"
        "  asm volatile(\"mapa.shared::cluster.u32 %0, %1, 0;\" : \"=r\"(r) : \"r\"(DEPV(a)));\n"
        "  out[threadIdx.x] = r;"),
    "getctarank": (
        "__shared__ unsigned s;\n"
        "  unsigned a = (unsigned)__cvta_generic_to_shared(&s), r;\n"
        "  asm volatile(\"getctarank.shared::cluster.u32 %0, %1;\" : \"=r\"(r) : \"r\"(DEPV(a)));\n"
        "  out[threadIdx.x] = r;"),
    # loads, stores, cache control
    "ld.global.L1::evict_last": (
        "unsigned r;\n"
        "  asm volatile(\"ld.global.L1::evict_last.b32 %0, [%1];\" : \"=r\"(r) : \"l\"(DEPV(out + threadIdx.x)));\n"
        "  out[threadIdx.x] = r;"),
    "ld.global.L1::no_allocate": (
        "unsigned r;\n"
        "  asm volatile(\"ld.global.L1::no_allocate.b32 %0, [%1];\" : \"=r\"(r) : \"l\"(DEPV(out + threadIdx.x)));\n"
        "  out[threadIdx.x] = r;"),
    "ld.global.L2::256B": (
        "unsigned r;\n"
        "  asm volatile(\"ld.global.L2::256B.b32 %0, [%1];\" : \"=r\"(r) : \"l\"(DEPV(out + threadIdx.x)));\n"
        "  out[threadIdx.x] = r;"),
    "ld.global.nc.L2::256B": (
        "unsigned r;\n"
        "  asm volatile(\"ld.global.nc.L2::256B.b32 %0, [%1];\" : \"=r\"(r) : \"l\"(DEPV(out + threadIdx.x)));\n"
        "  out[threadIdx.x] = r;"),
    "ld.global.L2::cache_hint": (
        "unsigned r;\n"
        "  asm volatile(\"ld.global.L2::cache_hint.b32 %0, [%1], %2;\" : \"=r\"(r) : \"l\"(DEPV(out + threadIdx.x)), \"l\"(0ull));\n"
        "  out[threadIdx.x] = r;"),
    "ld.global.nc.L2::cache_hint": (
        "unsigned r;\n"
        "  asm volatile(\"ld.global.nc.L2::cache_hint.b32 %0, [%1], %2;\" : \"=r\"(r) : \"l\"(DEPV(out + threadIdx.x)), \"l\"(0ull));\n"
        "  out[threadIdx.x] = r;"),
    "ld.global.v8": (
        "float r[8];\n"
        "  asm volatile(\"ld.global.v8.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8];\"\n"
        "               : \"=f\"(r[0]), \"=f\"(r[1]), \"=f\"(r[2]), \"=f\"(r[3]), \"=f\"(r[4]), \"=f\"(r[5]), \"=f\"(r[6]), \"=f\"(r[7])\n"
        "               : \"l\"(DEPV(out + 8 * threadIdx.x)));\n"
        "  out[threadIdx.x] = __float_as_uint(r[0] + r[7]);"),
    "st.global.v8": (
        "float v = __uint_as_float(out[0]);\n"
        "  asm volatile(\"st.global.v8.f32 [%0], {%1, %1, %1, %1, %1, %1, %1, %1};\" : : \"l\"(DEPV(out + 8 * threadIdx.x)), \"f\"(v) : \"memory\");"),
    "createpolicy": (
        "unsigned long long pol;\n"
        "  asm volatile(\"createpolicy.fractional.L2::evict_last.b64 %0, 1.0;\" : \"=l\"(pol) : DEPIN);\n"
        "  out[threadIdx.x] = (unsigned)pol;"),
    "applypriority": "asm volatile(\"applypriority.global.L2::evict_normal [%0], 128;\" : : \"l\"(DEPV(out)) : \"memory\");",
    "discard.global.L2": "asm volatile(\"discard.global.L2 [%0], 128;\" : : \"l\"(DEPV(out)) : \"memory\");",
    "prefetch.global.L2::evict_last": "asm volatile(\"prefetch.global.L2::evict_last [%0];\" : : \"l\"(DEPV(out)));",
    "prefetch.global.L2::evict_normal": "asm volatile(\"prefetch.global.L2::evict_normal [%0];\" : : \"l\"(DEPV(out)));",
    "prefetch.tensormap": "asm volatile(\"prefetch.tensormap [%0];\" : : \"l\"(DEPV(out)) : \"memory\");",
    # atomics and reductions
    "atom.global.add.noftz.bf16": (
        "unsigned short r;\n"
        "  asm volatile(\"atom.global.add.noftz.bf16 %0, [%1], %2;\" : \"=h\"(r) : \"l\"(DEPV(out)), \"h\"((unsigned short)out[1]) : \"memory\");\n"
        "  out[threadIdx.x + 2] = r;"),
    "atom.global.add.noftz.bf16x2": (
        "unsigned r;\n"
        "  asm volatile(\"atom.global.add.noftz.bf16x2 %0, [%1], %2;\" : \"=r\"(r) : \"l\"(DEPV(out)), \"r\"(out[1]) : \"memory\");\n"
        "  out[threadIdx.x + 2] = r;"),
    "atom.global.v2": (
        "float a, b;\n"
        "  asm volatile(\"atom.global.v2.f32.add {%0, %1}, [%2], {%3, %4};\" : \"=f\"(a), \"=f\"(b) : \"l\"(DEPV(out)), \"f\"(1.f), \"f\"(2.f) : \"memory\");\n"
        "  out[threadIdx.x + 4] = __float_as_uint(a + b);"),
    "atom.global.v4": (
        "float a, b, c, d;\n"
        "  asm volatile(\"atom.global.v4.f32.add {%0, %1, %2, %3}, [%4], {%5, %6, %7, %8};\"\n"
        "               : \"=f\"(a), \"=f\"(b), \"=f\"(c), \"=f\"(d) : \"l\"(DEPV(out)), \"f\"(1.f), \"f\"(2.f), \"f\"(3.f), \"f\"(4.f) : \"memory\");\n"
        "  out[threadIdx.x + 4] = __float_as_uint(a + b + c + d);"),
    "red.global.add.noftz.bf16": "asm volatile(\"red.global.add.noftz.bf16 [%0], %1;\" : : \"l\"(DEPV(out)), \"h\"((unsigned short)out[1]) : \"memory\");",
    "red.global.add.noftz.bf16x2": "asm volatile(\"red.global.add.noftz.bf16x2 [%0], %1;\" : : \"l\"(DEPV(out)), \"r\"(out[1]) : \"memory\");",
    "red.global.v2": "asm volatile(\"red.global.v2.f32.add [%0], {%1, %2};\" : : \"l\"(DEPV(out)), \"f\"(1.f), \"f\"(2.f) : \"memory\");",
    "red.global.v4": "asm volatile(\"red.global.v4.f32.add [%0], {%1, %2, %3, %4};\" : : \"l\"(DEPV(out)), \"f\"(1.f), \"f\"(2.f), \"f\"(3.f), \"f\"(4.f) : \"memory\");",
    "red.async": (
        SMEM + "  " + BAR +
        "  asm volatile(\"red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];\"\n"
        "               : : \"r\"(DEPV(sa)), \"r\"(out[0]), \"r\"(ba) : \"memory\");"),
    "multimem.ld_reduce": (
        "unsigned r;\n"
        "  asm volatile(\"multimem.ld_reduce.relaxed.sys.global.add.u32 %0, [%1];\" : \"=r\"(r) : \"l\"(DEPV(out)) : \"memory\");\n"
        "  out[threadIdx.x] = r;"),
    "multimem.red": "asm volatile(\"multimem.red.relaxed.sys.global.add.u32 [%0], %1;\" : : \"l\"(DEPV(out)), \"r\"(out[1]) : \"memory\");",
    "multimem.st": "asm volatile(\"multimem.st.relaxed.sys.global.u32 [%0], %1;\" : : \"l\"(DEPV(out)), \"r\"(out[1]) : \"memory\");",
    # asynchronous copies
    "cp.async": (
        "__shared__ unsigned s[128];\n"
        "  unsigned a = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x % 128]);\n"
        "  asm volatile(\"cp.async.ca.shared.global [%0], [%1], 4;\" : : \"r\"(DEPV(a)), \"l\"(out + threadIdx.x) : \"memory\");\n"
        "  out[threadIdx.x] = s[(threadIdx.x + 1) % 128];"),
    "cp.async.commit_group": simple("cp.async.commit_group;"),
    "cp.async.wait_group": simple("cp.async.wait_group 0;"),
    "cp.async.wait_all": simple("cp.async.wait_all;"),
    "cp.async.mbarrier.arrive": BAR + "  asm volatile(\"cp.async.mbarrier.arrive.shared.b64 [%0];\" : : \"r\"(DEPV(ba)) : \"memory\");",
    "cp.async.bulk": (
        SMEM + "  " + BAR +
        "  asm volatile(\"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 256, [%2];\"\n"
        "               : : \"r\"(DEPV(sa)), \"l\"(out), \"r\"(ba) : \"memory\");\n"
        "  out[threadIdx.x] = (unsigned)sbuf[threadIdx.x % 64];"),
    "cp.async.bulk.commit_group": simple("cp.async.bulk.commit_group;"),
    "cp.async.bulk.wait_group": simple("cp.async.bulk.wait_group 0;"),
    "cp.async.bulk.prefetch": "asm volatile(\"cp.async.bulk.prefetch.L2.global [%0], 256;\" : : \"l\"(DEPV(out)) : \"memory\");",
    "cp.async.bulk.prefetch.tensor": (
        "asm volatile(\"cp.async.bulk.prefetch.tensor.1d.L2.global.tile [%0, {%1}];\" : : \"l\"(DEPV(out)), \"r\"(0) : \"memory\");"),
    "cp.async.bulk.tensor": (
        SMEM + "  " + BAR +
        "  asm volatile(\"cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];\"\n"
        "               : : \"r\"(DEPV(sa)), \"l\"(out), \"r\"(0), \"r\"(ba) : \"memory\");\n"
        "  out[threadIdx.x] = (unsigned)sbuf[threadIdx.x % 64];"),
    "cp.reduce.async.bulk": (
        SMEM +
        "  asm volatile(\"cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], 256;\" : : \"l\"(DEPV(out)), \"r\"(sa) : \"memory\");"),
    "cp.reduce.async.bulk.tensor": (
        SMEM +
        "  asm volatile(\"cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [%0, {%1}], [%2];\"\n"
        "               : : \"l\"(DEPV(out)), \"r\"(0), \"r\"(sa) : \"memory\");"),
    "st.async": (
        SMEM + "  " + BAR +
        "  asm volatile(\"st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];\" : : \"r\"(DEPV(sa)), \"r\"(out[0]), \"r\"(ba) : \"memory\");"),
    "st.bulk": (
        SMEM +
        "  asm volatile(\"st.bulk.weak.shared::cta [%0], 256, 0;\" : : \"r\"(DEPV(sa)) : \"memory\");\n"
        "  out[threadIdx.x] = (unsigned)sbuf[threadIdx.x % 64];"),
    "clusterlaunchcontrol": (
        SMEM + "  " + BAR +
        "  asm volatile(\"clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [%0], [%1];\"\n"
        "               : : \"r\"(DEPV(sa)), \"r\"(ba) : \"memory\");"),
    "tensormap.cp_fenceproxy": (
        SMEM +
        "  asm volatile(\"tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;\"\n"
        "               : : \"l\"(DEPV(out)), \"r\"(sa) : \"memory\");"),
    "tensormap.replace": (
        SMEM +
        "  asm volatile(\"tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;\" : : \"r\"(DEPV(sa)), \"l\"(0ull) : \"memory\");"),
    # mbarrier
    "mbarrier.init": BAR + "  asm volatile(\"mbarrier.init.shared.b64 [%0], %1;\" : : \"r\"(DEPV(ba)), \"r\"(32) : \"memory\");",
    "mbarrier.inval": BAR + "  asm volatile(\"mbarrier.inval.shared.b64 [%0];\" : : \"r\"(DEPV(ba)) : \"memory\");",
    "mbarrier.arrive": (
        BAR + "  unsigned long long state;\n"
        "  asm volatile(\"mbarrier.arrive.shared.b64 %0, [%1];\" : \"=l\"(state) : \"r\"(DEPV(ba)) : \"memory\");\n"
        "  out[threadIdx.x] = (unsigned)state;"),
    "mbarrier.arrive_drop": (
        BAR + "  unsigned long long state;\n"
        "  asm volatile(\"mbarrier.arrive_drop.shared.b64 %0, [%1];\" : \"=l\"(state) : \"r\"(DEPV(ba)) : \"memory\");\n"
        "  out[threadIdx.x] = (unsigned)state;"),
    "mbarrier.arrive.expect_tx": (
        BAR + "  unsigned long long state;\n"
        "  asm volatile(\"mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], 128;\" : \"=l\"(state) : \"r\"(DEPV(ba)) : \"memory\");\n"
        "  out[threadIdx.x] = (unsigned)state;"),
    "mbarrier.expect_tx": BAR + "  asm volatile(\"mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], 128;\" : : \"r\"(DEPV(ba)) : \"memory\");",
    "mbarrier.complete_tx": BAR + "  asm volatile(\"mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], 128;\" : : \"r\"(DEPV(ba)) : \"memory\");",
    "mbarrier.pending_count": (
        "unsigned r;\n"
        "  asm volatile(\"mbarrier.pending_count.b64 %0, %1;\" : \"=r\"(r) : \"l\"(DEPV((unsigned long long)out[0])));\n"
        "  out[threadIdx.x] = r;"),
    "mbarrier.test_wait": mbar_pred("mbarrier.test_wait.shared.b64 p, [%1], %2;"),
    "mbarrier.test_wait.parity": mbar_pred("mbarrier.test_wait.parity.shared.b64 p, [%1], %2;").replace(
        "\"l\"(state)", "\"r\"((unsigned)state)"),
    "mbarrier.try_wait": mbar_pred("mbarrier.try_wait.shared::cta.b64 p, [%1], %2;"),
    # matrix fragments
    "ldmatrix": (
        "__shared__ unsigned short s[16 * 8];\n"
        "  unsigned a = (unsigned)__cvta_generic_to_shared(&s[(threadIdx.x % 16) * 8]), r0, r1;\n"
        "  asm volatile(\"ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\" : \"=r\"(r0), \"=r\"(r1) : \"r\"(DEPV(a)));\n"
        "  out[threadIdx.x] = r0 ^ r1;"),
    "ldmatrix.sync.aligned.m16n16": (
        "__shared__ unsigned char s[16 * 16];\n"
        "  unsigned a = (unsigned)__cvta_generic_to_shared(&s[(threadIdx.x % 16) * 16]), r0, r1;\n"
        "  asm volatile(\"ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%0, %1}, [%2];\" : \"=r\"(r0), \"=r\"(r1) : \"r\"(DEPV(a)));\n"
        "  out[threadIdx.x] = r0 ^ r1;"),
    "ldmatrix.sync.aligned.m8n16": (
        "__shared__ unsigned char s[16 * 16];\n"
        "  unsigned a = (unsigned)__cvta_generic_to_shared(&s[(threadIdx.x % 8) * 16]), r0;\n"
        "  asm volatile(\"ldmatrix.sync.aligned.m8n16.x1.shared.b8x16.b6x16_p32 {%0}, [%1];\" : \"=r\"(r0) : \"r\"(DEPV(a)));\n"
        "  out[threadIdx.x] = r0;"),
    "stmatrix": (
        "__shared__ unsigned short s[8 * 8];\n"
        "  unsigned a = (unsigned)__cvta_generic_to_shared(&s[(threadIdx.x % 8) * 8]);\n"
        "  asm volatile(\"stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};\" : : \"r\"(DEPV(a)), \"r\"(out[0]) : \"memory\");\n"
        "  out[threadIdx.x] = s[threadIdx.x % 64];"),
    "movmatrix": (
        "unsigned r;\n"
        "  asm volatile(\"movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;\" : \"=r\"(r) : \"r\"(DEPV(out[threadIdx.x])));\n"
        "  out[threadIdx.x] = r;"),
    # mma.sync
    "mma.sync.aligned.m8n8k4": mma("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32", 8, 2, 2),
    "mma.sync.aligned.m8n8k4.row.col.f64": mma("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", 2, 1, 1,
                                               dcons="d", dtype="double").replace(
        "\"r\"(DEPV(out[0]))", "\"d\"(DEPV((double)out[0]))").replace("\"r\"(out[1])", "\"d\"((double)out[1])"),
    "mma.sync.aligned.m8n8k16": mma("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32", 2, 1, 1, dcons="r", dtype="int"),
    "mma.sync.aligned.m8n8k32": mma("mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32", 2, 1, 1, dcons="r", dtype="int"),
    "mma.sync.aligned.m8n8k128": mma("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc", 2, 1, 1, dcons="r", dtype="int"),
    "mma.sync.aligned.m16n8k4": mma("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32", 4, 2, 1),
    "mma.sync.aligned.m16n8k8": mma("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", 4, 2, 1),
    "mma.sync.aligned.m16n8k8.row.col.f32.bf16": mma("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32", 4, 2, 1),
    "mma.sync.aligned.m16n8k8.row.col.f32.tf32": mma("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 4, 4, 2),
    "mma.sync.aligned.m16n8k16": mma("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 4, 4, 2),
    "mma.sync.aligned.m16n8k32": mma("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", 4, 4, 2, dcons="r", dtype="int"),
    "mma.sync.aligned.m16n8k32.row.col.f32.e4m3": mma("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", 4, 4, 2),
    "mma.sync.aligned.m16n8k32.row.col.f32.e5m2": mma("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32", 4, 4, 2),
    "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4": mma(
        "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32", 4, 4, 2),
    "mma.sync.aligned.m16n8k64": mma("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", 4, 4, 2, dcons="r", dtype="int"),
    "mma.sync.aligned.m16n8k128": mma("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc", 4, 2, 1,
                                      dcons="r", dtype="int"),
    "mma.sync.aligned.m16n8k256": mma("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc", 4, 4, 2,
                                      dcons="r", dtype="int"),
    "mma.sp.sync.aligned": (
        "float acc[4] = {};\n"
        "  asm volatile(\"mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%0, %1, %2, %3}, %8, 0x0;\"\n"
        "               : \"+f\"(acc[0]), \"+f\"(acc[1]), \"+f\"(acc[2]), \"+f\"(acc[3])\n"
        "               : \"r\"(DEPV(out[0])), \"r\"(out[1]), \"r\"(out[2]), \"r\"(out[3]), \"r\"(out[4]));\n"
        "  out[threadIdx.x] = (unsigned)acc[0];"),
    "wmma.load": (
        "unsigned r[8];\n"
        "  asm volatile(\"wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8];\"\n"
        "               : \"=r\"(r[0]), \"=r\"(r[1]), \"=r\"(r[2]), \"=r\"(r[3]), \"=r\"(r[4]), \"=r\"(r[5]), \"=r\"(r[6]), \"=r\"(r[7])\n"
        "               : \"l\"(DEPV(out)));\n"
        "  out[threadIdx.x] = r[0] ^ r[7];"),
    "wmma.mma": (
        "unsigned d[4] = {};\n"
        "  asm volatile(\"wmma.mma.sync.aligned.row.col.m16n16k16.f16.f16 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11},"
        " {%12, %13, %14, %15, %16, %17, %18, %19}, {%0, %1, %2, %3};\"\n"
        "               : \"+r\"(d[0]), \"+r\"(d[1]), \"+r\"(d[2]), \"+r\"(d[3])\n"
        "               : \"r\"(DEPV(out[0])), \"r\"(out[1]), \"r\"(out[2]), \"r\"(out[3]), \"r\"(out[4]), \"r\"(out[5]), \"r\"(out[6]), \"r\"(out[7]),\n"
        "                 \"r\"(out[8]), \"r\"(out[9]), \"r\"(out[10]), \"r\"(out[11]), \"r\"(out[12]), \"r\"(out[13]), \"r\"(out[14]), \"r\"(out[15]));\n"
        "  out[threadIdx.x] = d[0] ^ d[3];"),
    # warpgroup mma (sm_90a)
    "wgmma.fence": simple("wgmma.fence.sync.aligned;"),
    "wgmma.commit_group": simple("wgmma.commit_group.sync.aligned;"),
    "wgmma.wait_group": simple("wgmma.wait_group.sync.aligned 0;"),
    "wgmma.mma_async": (
        "float d0 = 0, d1 = 0, d2 = 0, d3 = 0;\n"
        "  unsigned long long da = out[0], db = out[1];\n"
        "  asm volatile(\"{\\n .reg .pred p;\\n setp.ne.b32 p, %6, 0;\\n\"\n"
        "               \" wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\\n}\"\n"
        "               : \"+f\"(d0), \"+f\"(d1), \"+f\"(d2), \"+f\"(d3) : \"l\"(DEPV(da)), \"l\"(db), \"r\"(1));\n"
        "  out[threadIdx.x] = __float_as_uint(d0 + d1 + d2 + d3);"),
    "wgmma.mma_async.sp": (
        "float d0 = 0, d1 = 0, d2 = 0, d3 = 0;\n"
        "  unsigned long long da = out[0], db = out[1];\n"
        "  asm volatile(\"{\\n .reg .pred p;\\n setp.ne.b32 p, %7, 0;\\n\"\n"
        "               \" wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, %6, 0, p, 1, 1, 0, 0;\\n}\"\n"
        "               : \"+f\"(d0), \"+f\"(d1), \"+f\"(d2), \"+f\"(d3) : \"l\"(DEPV(da)), \"l\"(db), \"r\"(out[2]), \"r\"(1));\n"
        "  out[threadIdx.x] = __float_as_uint(d0 + d1 + d2 + d3);"),
    "setmaxnreg": "asm volatile(\"setmaxnreg.inc.sync.aligned.u32 232;\" : : DEPIN);",
    # tcgen05 (tensor memory, arch-specific Blackwell)
    "tcgen05.alloc": TC_ALLOC,
    "tcgen05.dealloc": "asm volatile(\"tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;\" : : \"r\"(DEPV(out[0])) : \"memory\");",
    "tcgen05.relinquish_alloc_permit": simple("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;"),
    "tcgen05.fence": simple("tcgen05.fence::before_thread_sync;"),
    "tcgen05.wait": simple("tcgen05.wait::ld.sync.aligned;"),
    "tcgen05.commit": BAR + "  asm volatile(\"tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];\" : : \"r\"(DEPV(ba)) : \"memory\");",
    "tcgen05.ld": (
        "unsigned r;\n"
        "  asm volatile(\"tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];\" : \"=r\"(r) : \"r\"(DEPV(out[0])) : \"memory\");\n"
        "  out[threadIdx.x] = r;"),
    "tcgen05.st": "asm volatile(\"tcgen05.st.sync.aligned.32x32b.x1.b32 [%0], {%1};\" : : \"r\"(DEPV(out[0])), \"r\"(out[1]) : \"memory\");",
    "tcgen05.cp": "asm volatile(\"tcgen05.cp.cta_group::1.128x256b [%0], %1;\" : : \"r\"(DEPV(out[0])), \"l\"((unsigned long long)out[1]) : \"memory\");",
    "tcgen05.shift": "asm volatile(\"tcgen05.shift.cta_group::1.down [%0];\" : : \"r\"(DEPV(out[0])) : \"memory\");",
    "tcgen05.mma": (
        "unsigned long long adesc = out[0], bdesc = out[1];\n"
        "  asm volatile(\"{\\n .reg .pred p;\\n setp.ne.b32 p, %4, 0;\\n\"\n"
        "               \" tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\\n}\"\n"
        "               : : \"r\"(DEPV(out[2])), \"l\"(adesc), \"l\"(bdesc), \"r\"(out[3]), \"r\"(1) : \"memory\");"),
}

# Kernel attributes some instructions need (ptxas checks them on the kernel that reaches the code).
KERNEL_ATTRS = {
    "setmaxnreg": "__launch_bounds__(128)",
}
