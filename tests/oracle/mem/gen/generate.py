#!/usr/bin/env python3
"""Generates the coalescing oracle's kernels from an index-expression grammar.

    python3 tests/oracle/mem/gen/generate.py [--count 360] [--seed 1]

Each kernel tests one global access (a load or a store) and pairs it with a unit-stride access
of the other direction, so Nsight Compute's sectors per request of the tested direction is the
tested access's. A kernel is one choice of

  index pattern  what multiplies the lane index: a literal, a constexpr, a template argument, a
                 kernel parameter, blockDim.x, a loop variable, a helper's parameter; groups of
                 threads (t / G, t % G); a thread's contiguous run; 2-D row/column positions,
                 2-D array types and a column-major macro; warp-uniform indices; gathers
  lane form      how the thread index is written: blockIdx*blockDim+threadIdx, cooperative
                 groups (grid rank, block rank, a 32-thread tile's rank), 2-D launches
  element type   char, __half, float, double, float2, float4
  wrapper        p[i], *(p + i), a local offset pointer, a macro, __ldg/__ldcs/__ldcg,
                 __stcs/__stcg
  guard          none, a bounds check, an early return, one lane per warp, a grid-stride loop

Writes kernels/<name>.cu (harness: ../../harness.cuh) and cases.json (per kernel: the choices,
the tested direction, the widths). The truth is measured, not predicted here: run_ncu.py
--corpus gen/kernels on the device machine.
"""
import argparse
import json
import os
import random
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))

# type: (C++ type, bytes, input buffer, output buffer, capacity in elements)
TYPES = {
    "char": ("char", 1, "c_in", "c_out", 1 << 27),
    "half": ("__half", 2, "h_in", "h_out", 1 << 27),
    "float": ("float", 4, "f_in", "f_out", 1 << 27),
    "double": ("double", 8, "d_in", "d_out", 1 << 27),
    "float2": ("float2", 8, "f2_in", "f2_out", 1 << 26),
    "float4": ("float4", 16, "f4_in", "f4_out", 1 << 25),
}
LDG_TYPES = {"char", "half", "float", "double", "float2", "float4"}

# Index patterns. 'coef' bounds the index: max index < coef * threads + extra. 'dims' 1 or 2.
# 'idx' is the index in terms of t (1-D) or x, y (2-D) and the names the pattern declares.
PATTERNS = []


def pat(name, dims, coef, **kw):
    PATTERNS.append(dict(name=name, dims=dims, coef=coef, **kw))


for s in (1, 2, 3, 4, 8, 32, 33):
    pat(f"lit{s}", 1, s, idx=f"t * {s}")
pat("lit2_plus1", 1, 3, idx="2 * t + 1")
pat("lit1_plus1", 1, 2, idx="t + 1")
pat("reversed", 1, 1, idx="(n - 1 - t)")
pat("reversed2", 1, 2, idx="2 * (n - 1 - t)")
for s in (1, 4, 16):
    pat(f"constexpr{s}", 1, s, pre=f"constexpr int kS = {s};", idx="t * kS")
for s in (1, 2, 8):
    pat(f"template{s}", 1, s, template=s, idx="t * S")
for s in (2, 8, 64):
    pat(f"param{s}", 1, s, param=("stride", s), idx="t * stride")
pat("param_unit_offset", 1, 1, param=("offset", 64), idx="t + offset")
pat("blockdim_rowpos", 1, 1, idx="threadIdx.x * blockDim.x + blockIdx.x", block_idx=True)
pat("blockdim_unit", 1, 1, idx="blockIdx.x * blockDim.x + threadIdx.x", block_idx=True)
pat("loop_k_stride", 1, 5, loop="for (int k = 2; k < 5; ++k)", idx="k * t")
pat("loop_k_plane", 1, 4, loop="for (int k = 0; k < 4; ++k)", idx="k * n + t")
pat("helper_lit4", 1, 4, helper=4, idx="t")
pat("helper_lit1", 1, 1, helper=1, idx="t")
for g, s in ((4, 4), (4, 8), (8, 16), (4, 64)):
    pat(f"group{g}_row{s}", 1, s // g + 1, idx=f"(t / {g}) * {s} + t % {g}")
pat("group4_param", 1, 65, param=("row", 256), idx="(t / 4) * row + t % 4", coef_param=64)
for r in (2, 3, 9):
    pat(f"run{r}", 1, r, run=r, idx=f"t * {r}")
pat("warp_uniform", 1, 1, idx="t / 32")
pat("block_uniform", 1, 1, idx="blockIdx.x", block_idx=True)
pat("gather_sorted", 1, 1, gather="idx_sorted", idx="t")
pat("gather_random", 1, 1, gather="idx_random", idx="t")
pat("chase", 1, 1, chase=True, idx="t")
# 2-D: x is the fast (lane) dimension, y the slow one; the row length W is a literal or a
# parameter.
pat("rowmajor_lit", 2, 1, idx="y * 1024 + x")
pat("rowpos_lit", 2, 1, idx="x * 1024 + y")
pat("rowmajor_param", 2, 1, param=("w", 1024), idx="y * w + x")
pat("rowpos_param", 2, 1, param=("w", 1024), idx="x * w + y")
pat("array2d_rowmajor", 2, 1, array2d=True, idx="m[y][x]")
pat("array2d_rowpos", 2, 1, array2d=True, idx="m[x][y]")
pat("macro_colmajor", 2, 1, idx="IDX2C(x, y, 1024)")
pat("macro_colmajor_rowpos", 2, 1, idx="IDX2C(y, x, 1024)")
pat("tid_y_rows", 2, 1, idx="threadIdx.x * 32 + threadIdx.y + (blockIdx.y * gridDim.x + blockIdx.x) * 1024",
    block_idx=True)

LANE_1D = ["gid", "gid_sum", "cg_grid", "cg_block", "cg_tile"]
SHAPES_2D = [(32, 8), (16, 16)]
WRAP_LD = ["direct", "ptr_arith", "local_ptr", "macro", "ldg", "ldcs", "ldcg"]
WRAP_ST = ["direct", "ptr_arith", "local_ptr", "macro", "stcs", "stcg"]
# Weighted: one lane per warp makes any pattern coalesced, so it is drawn less often.
GUARDS_1D = ["none"] * 3 + ["bounds"] * 3 + ["early_return"] * 2 + ["one_lane"] + ["grid_stride"] * 2
GUARDS_2D = ["none"] * 3 + ["bounds"] * 3 + ["one_lane"]

LANE_CODE = {
    "gid": "int t = blockIdx.x * blockDim.x + threadIdx.x;",
    "gid_sum": "int t = threadIdx.x + blockDim.x * blockIdx.x;",
    "cg_grid": "int t = static_cast<int>(cg::this_grid().thread_rank());",
    "cg_block": "cg::thread_block block = cg::this_thread_block();\n"
                "  int t = static_cast<int>(block.group_index().x * block.size() + block.thread_rank());",
    "cg_tile": "cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());\n"
               "  int t = static_cast<int>(blockIdx.x * blockDim.x + tile.meta_group_rank() * 32 + tile.thread_rank());",
}


def threads_for(p, width_elems_cap):
    """Threads of a 1-D launch so that every index stays inside the buffer."""
    coef = p.get("coef_param", 0) + p["coef"]
    if "param" in p and p["param"][0] == "stride":
        coef = p["param"][1]
    n = 1 << 21
    while n * (coef + 1) + 4096 > width_elems_cap:
        n //= 2
    return n


def access(wrap, ptr, idx, store, value=None):
    """The access expression (load) or statement (store) of one wrapper."""
    if wrap == "direct":
        ref = f"{ptr}[{idx}]"
    elif wrap == "ptr_arith":
        ref = f"*({ptr} + {idx})"
    elif wrap == "local_ptr":
        ref = f"q[{idx}]"
    elif wrap == "macro":
        ref = f"AT({ptr}, {idx})"
    elif wrap in ("ldg", "ldcs", "ldcg"):
        return f"__{wrap}(&{ptr}[{idx}])"
    elif wrap in ("stcs", "stcg"):
        return f"__{wrap}(&{ptr}[{idx}], {value});"
    else:
        raise ValueError(wrap)
    return f"{ref} = {value};" if store else ref


def kernel_source(name, p, tname, direction, wrap, guard, lane, shape):
    ctype, width, inbuf, outbuf, cap = TYPES[tname]
    store = direction == "st"
    params = [f"const {ctype}* __restrict__ in", f"{ctype}* __restrict__ out", "int n"]
    args = [f"reinterpret_cast<const {ctype}*>(B.{inbuf})", f"reinterpret_cast<{ctype}*>(B.{outbuf})"]
    extra_args = []
    if "param" in p:
        params.append(f"int {p['param'][0]}")
        # Through a host function, so that the value is a runtime one to a static reader too.
        extra_args.append(f"runtime({p['param'][1]})")
    if "gather" in p:
        params.append("const int* __restrict__ gidx")
    if "chase" in p:
        params.append("const int* __restrict__ next")
    tested = "out" if store else "in"
    other = "in" if store else "out"
    body = []
    top = []
    if p["dims"] == 1:
        threads = threads_for(p, cap)
        if guard == "grid_stride":
            threads_launch = threads // 4
        else:
            threads_launch = threads
        body.append(LANE_CODE[lane] if guard != "grid_stride" else LANE_CODE[lane].replace("int t =", "int t0 ="))
        launch = f"<<<{threads_launch // 256}, 256>>>"
        n_value = threads
        unit = "t"
    else:
        bx, by = shape
        body.append("int x = blockIdx.x * blockDim.x + threadIdx.x;")
        body.append("int y = blockIdx.y * blockDim.y + threadIdx.y;")
        launch = f"<<<dim3(1024 / {bx}, 1024 / {by}), dim3({bx}, {by})>>>"
        n_value = 1024
        unit = "y * 1024 + x"
    if "pre" in p:
        body.append(p["pre"])
    idx = p["idx"]
    if wrap == "local_ptr":
        body.append(f"{'' if store else 'const '}{ctype}* q = {tested} + 0;")
        # the offset pointer is the tested buffer itself: `q` aliases it
    guard_open, guard_close, indent = "", "", "  "
    if guard == "bounds":
        cond = "t < n" if p["dims"] == 1 else "x < n && y < n"
        guard_open, guard_close = f"if ({cond}) {{", "}"
    elif guard == "early_return":
        body.append("if (t >= n) return;")
    elif guard == "one_lane":
        guard_open, guard_close = "if ((threadIdx.x & 31) == 0) {", "}"
    elif guard == "grid_stride":
        guard_open, guard_close = "for (int t = t0; t < n; t += gridDim.x * blockDim.x) {", "}"
    stmts = []
    if "array2d" in p:
        # The tested buffer seen as rows of 1024 elements.
        stmts.append(f"{'' if store else 'const '}{ctype} (*m)[1024] = reinterpret_cast<{'' if store else 'const '}{ctype} (*)[1024]>({tested});")
    if "gather" in p:
        idx = "gidx[t]"
    if "chase" in p:
        stmts.append("int j = next[t];")
        stmts.append("j = next[j];")
        idx = "j"
    if "helper" in p:
        pass  # load_at / store_at: gen.cuh
    if store:
        stmts.append(f"{ctype} v = {other}[{unit}];")
        if "helper" in p:
            stmts.append(f"store_at(out, t, {p['helper']}, v);")
        elif "array2d" in p:
            stmts.append(f"{idx} = v;")
        elif "run" in p:
            for r in range(p["run"]):
                stmts.append(access(wrap, tested, f"{idx} + {r}", True, "v"))
        elif "loop" in p:
            stmts.append(f"{p['loop']} {access(wrap, tested, idx, True, 'v')}")
        else:
            stmts.append(access(wrap, tested, idx, True, "v"))
    else:
        if "helper" in p:
            stmts.append(f"{ctype} v = load_at(in, t, {p['helper']});")
        elif "array2d" in p:
            stmts.append(f"{ctype} v = {idx};")
        elif "run" in p or "loop" in p:
            # Keep every element: the last one read wins, the others are XOR-ed into a
            # checksum the compiler cannot drop.
            stmts.append(f"{ctype} v = {access(wrap, tested, idx if 'loop' not in p else idx.replace('k', '2'), False)};")
            stmts.append("unsigned acc = 0;")
            if "run" in p:
                for r in range(1, p["run"]):
                    stmts.append(f"{{ {ctype} w = {access(wrap, tested, f'{idx} + {r}', False)}; acc += bits(w); }}")
            else:
                stmts.append(f"{p['loop']} {{ {ctype} w = {access(wrap, tested, idx, False)}; acc += bits(w); }}")
            stmts.append("if (acc == 0x9e3779b9u) v = " + f"{other}[{unit}];")
        else:
            stmts.append(f"{ctype} v = {access(wrap, tested, idx, False)};")
        stmts.append(f"{other}[{unit}] = v;")
    if guard_open:
        body.append(guard_open)
        body += ["  " + s for s in stmts]
        body.append(guard_close)
    else:
        body += stmts
    tmpl = ""
    kname = name
    if "template" in p:
        tmpl = "template <int S>\n"
        kname = f"{name}<{p['template']}>"
    launch_args = args + [str(n_value)] + extra_args
    if "gather" in p:
        launch_args.append(f"B.{p['gather']}")
    if "chase" in p:
        launch_args.append("B.idx_random")
    src = [f"// generated by gen/generate.py: pattern {p['name']}, type {tname}, tested {direction}, "
           f"wrapper {wrap}, guard {guard}, lane {lane if p['dims'] == 1 else 'xy%dx%d' % shape}",
           f"// access bytes per thread: ld {width}, st {width}",
           '#include "../gen.cuh"']
    src += top
    src.append(f"{tmpl}__global__ void {name}({', '.join(params)}) {{")
    src += ["  " + b for b in body]
    src.append("}")
    src.append(f"void launch_{name}(const Buffers& B) {{ {kname}{launch}({', '.join(launch_args)}); }}")
    return "\n".join(src) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=360)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    out_dir = os.path.join(HERE, "kernels")
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    cases = {}
    per, rest = divmod(a.count, len(PATTERNS))
    i = 0
    for pi, p in enumerate(PATTERNS):
        for k in range(per + (1 if pi < rest else 0)):
            direction = ["ld", "st"][k % 2]
            tname = list(TYPES)[(k // 2 + PATTERNS.index(p)) % len(TYPES)]
            wraps = WRAP_ST if direction == "st" else WRAP_LD
            if "helper" in p or "array2d" in p:
                wraps = ["direct"]
            if "macro" in p["idx"].lower() or "IDX2C" in p["idx"]:
                wraps = [w for w in wraps if w != "macro"]
            if tname not in LDG_TYPES:
                wraps = [w for w in wraps if not w.startswith("ld")]
            wrap = wraps[rng.randrange(len(wraps))]
            guards = GUARDS_1D if p["dims"] == 1 else GUARDS_2D
            if "loop" in p or "run" in p or "chase" in p or "gather" in p:
                guards = [g for g in guards if g != "grid_stride"]
            if p.get("block_idx"):
                guards = [g for g in guards if g not in ("grid_stride",)]
            guard = guards[rng.randrange(len(guards))]
            lane = LANE_1D[rng.randrange(len(LANE_1D))] if p["dims"] == 1 else None
            shape = SHAPES_2D[rng.randrange(len(SHAPES_2D))] if p["dims"] == 2 else None
            i += 1
            name = f"g{i:03d}_{p['name']}_{tname}_{direction}"
            src = kernel_source(name, p, tname, direction, wrap, guard, lane or "gid", shape)
            with open(os.path.join(out_dir, name + ".cu"), "w") as f:
                f.write(src)
            cases[name] = {"pattern": p["name"], "type": tname, "tested": direction, "wrapper": wrap,
                           "guard": guard, "lane": lane, "shape": list(shape) if shape else None,
                           "width": TYPES[tname][1],
                           # Directions whose measurement rests on indices read from memory: the
                           # tested one of a gather, and the loads of a pointer chase.
                           "data_dependent": sorted({direction, "ld"} if "chase" in p else
                                                    {direction} if "gather" in p else set())}
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        json.dump(cases, f, indent=1, sort_keys=True)
    print(f"{len(cases)} kernels in {out_dir}")


if __name__ == "__main__":
    main()
