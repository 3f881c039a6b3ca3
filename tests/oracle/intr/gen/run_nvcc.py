#!/usr/bin/env python3
"""Compiles the generated INTR cases (generate.py's output) with nvcc for every target and writes the
verdicts as compact JSON.

    python3 tests/oracle/intr/gen/run_nvcc.py                          # the whole plan, -j os.cpu_count()
    python3 tests/oracle/intr/gen/run_nvcc.py --sample 40 --seed 1 -j 2  # a small local check
    python3 tests/oracle/intr/gen/run_nvcc.py --forms kernel --archs sm_80,sm_90 --out /tmp/v.json

The compile command and the target list are those of tests/oracle/intr/run_nvcc.py (imported):
`nvcc -cubin -arch=<target> -std=c++17 -o /dev/null <case>` in the case directory, for every
sm_XX nvcc lists plus the sm_XXa/sm_XXf variants its help names.

The plan: every case for every target. When that product exceeds --max-compilations (default
15000: about 450 s on 16 cores), it is reduced deterministically: the `kernel` form of
every feature for every target, and all the other forms for a subset of the features drawn with
--subset-seed, as many as fit. The reduction is printed and recorded under "plan". --deadline
(default 510 s) stops handing out new cases after that many seconds; cases not compiled for
every target by then are left out of the output and counted.

Output (--out, default verdicts.json beside this script), one case per line:
  {"nvcc_version": "13.0.88", "archs": [...], "plan": {...},
   "cases": {"kernel__x.cu": {"feature": "x", "form": "kernel", "fail": ["sm_75"], "errors": {"sm_75": "..."}}}}
`fail` lists the targets nvcc rejects the case for; `errors` gives each such target's first error
line with paths reduced to file names.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import run_nvcc as base  # noqa: E402  tests/oracle/intr/run_nvcc.py: the oracle's compile command and targets

DEFAULT_MAX = 15000
FORM_ORDER = ["kernel", "guarded", "helper_reached", "helper_unreached", "template_instantiated",
              "template_uninstantiated", "template_via_macro", "host_device", "host_only"]


def case_header(path):
    """(feature, form, class) from a generated case's leading comment; the class (kind, cuda::ptx
    wrapper or not, arch-specific or not) spreads the reduced plan's feature subset over the kinds."""
    feat = form = None
    cls = ""
    with open(path, errors="replace") as f:
        for line in f:
            if not line.startswith("//"):
                break
            m = re.match(r"//\s*feature:\s*(.*?)\s*$", line)
            if m and feat is None:
                feat = m.group(1)
            m = re.match(r"//\s*form:\s*(\S+)", line)
            if m and form is None:
                form = m.group(1)
            m = re.match(r"//\s*kind:\s*(\w+);.*arch_specific:\s*(\S+)", line)
            if m:
                cls = f"{m.group(1)}{'/specific' if m.group(2) != '-' else ''}"
    if feat and feat.startswith("cuda::ptx::"):
        cls += "/cuda::ptx"
    return feat, form, cls


def strip_paths(line):
    return re.sub(r"(?:/[^\s/:()'\"]+)+/([^\s/:()'\"]+)", r"\1", line)


def plan(cases, archs, max_comp, subset_seed):
    """[(case, ...)] to compile for every target, and a description of any reduction."""
    total = len(cases) * len(archs)
    info = {"cases": len(cases), "targets": len(archs), "full_product": total}
    if total <= max_comp:
        info.update(reduced=False, compilations=total, cases_planned=len(cases))
        return sorted(cases), info
    by_feat, classes = {}, {}
    for c, (feat, form, cls) in cases.items():
        by_feat.setdefault(feat, []).append((c, form))
        classes.setdefault(cls, set()).add(feat)
    kernel = sorted(c for c, (feat, form, cls) in cases.items() if form == "kernel")
    feats_without_kernel = sorted(f for f, cs in by_feat.items() if not any(form == "kernel" for _, form in cs))
    budget = max_comp - len(kernel) * len(archs)
    # a seeded shuffle of each class of features, interleaved round-robin, so that the features kept
    # in every form cover functions, types, PTX, removed forms, cuda::ptx wrappers, arch-specific rows
    rng = random.Random(subset_seed)
    pools = []
    for cls in sorted(classes):
        pool = sorted(classes[cls])
        rng.shuffle(pool)
        pools.append(pool)
    order = [p[i] for i in range(max(map(len, pools))) for p in pools if i < len(p)]
    chosen = []
    for f in order:
        extra = [c for c, form in by_feat[f] if form != "kernel"]
        cost = len(extra) * len(archs)
        if cost <= budget:
            chosen.append(f)
            budget -= cost
    chosen_set = set(chosen)
    # kernel forms first, so that a run cut by --deadline still covers every feature; then the other
    # forms feature by feature, so that a cut drops whole features rather than whole forms
    rank = {f: i for i, f in enumerate(FORM_ORDER)}
    picked = kernel + [c for f in chosen for c, form in sorted(by_feat[f], key=lambda cf: rank.get(cf[1], 99))
                       if form != "kernel"]
    info.update(reduced=True, compilations=len(picked) * len(archs), cases_planned=len(picked),
                rule=f"the kernel form of all {len(kernel)} features, and every form of {len(chosen)} features "
                     f"drawn with --subset-seed {subset_seed} (round-robin over {len(pools)} classes of rows)",
                all_forms_features=sorted(chosen_set))
    if feats_without_kernel:
        info["features_without_kernel_case"] = feats_without_kernel
    return picked, info


def dump(doc, out):
    cases = doc["cases"]
    text = "{\n"
    for k in ("nvcc_version", "command", "archs", "plan"):
        text += f"  {json.dumps(k)}: {json.dumps(doc[k])},\n"
    text += '  "cases": {\n'
    names = sorted(cases)
    for i, n in enumerate(names):
        text += f"    {json.dumps(n)}: {json.dumps(cases[n])}" + (",\n" if i + 1 < len(names) else "\n")
    text += "  }\n}\n"
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nvcc", default=os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc"))
    ap.add_argument("--cases-dir", default=os.path.join(HERE, "cases"))
    ap.add_argument("--out", default=os.path.join(HERE, "verdicts.json"))
    ap.add_argument("--archs", help="comma-separated targets (default: every target nvcc accepts)")
    ap.add_argument("--forms", help="comma-separated forms to compile (default: all)")
    ap.add_argument("--features", help="regex: only cases whose feature matches")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--max-compilations", type=int, default=DEFAULT_MAX,
                    help=f"reduce the plan above this many compilations (default {DEFAULT_MAX})")
    ap.add_argument("--subset-seed", type=int, default=0, help="seed of the feature subset kept in every form")
    ap.add_argument("--limit", type=int, help="compile only the first N (case, target) pairs of the plan")
    ap.add_argument("--sample", type=int, help="compile a seeded random sample of N (case, target) pairs of the plan")
    ap.add_argument("--seed", type=int, default=1, help="seed of --sample")
    ap.add_argument("--deadline", type=float, default=510, help="seconds after which no new case is started")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per nvcc run")
    a = ap.parse_args()

    t0 = time.time()
    base.CASES = os.path.abspath(a.cases_dir)  # base.compile_one compiles in (and reads flags from) base.CASES
    archs = a.archs.split(",") if a.archs else base.nvcc_archs(a.nvcc)
    forms = set(a.forms.split(",")) if a.forms else None
    cases = {}
    for name in sorted(os.listdir(base.CASES)):
        if not name.endswith(".cu"):
            continue
        feat, form, cls = case_header(os.path.join(base.CASES, name))
        if feat is None or form is None:
            continue
        if forms and form not in forms:
            continue
        if a.features and not re.search(a.features, feat):
            continue
        cases[name] = (feat, form, cls)
    if not cases:
        sys.exit(f"no generated cases in {base.CASES} (run generate.py)")
    picked, info = plan(cases, archs, a.max_compilations, a.subset_seed)
    work = [(c, t) for c in picked for t in archs]
    partial_run = False
    if a.sample is not None:
        work = sorted(random.Random(a.seed).sample(work, min(a.sample, len(work))),
                      key=lambda ct: (picked.index(ct[0]), archs.index(ct[1])))
        info["sample"] = {"pairs": len(work), "seed": a.seed}
        partial_run = True
    elif a.limit is not None:
        work = work[:a.limit]
        info["limit"] = len(work)
        partial_run = True

    version = base.nvcc_version(a.nvcc)
    print(f"nvcc {version}: {len(cases)} cases x {len(archs)} targets = {info['full_product']} compilations in full",
          flush=True)
    if info["reduced"]:
        print(f"reduced to {info['compilations']} compilations (--max-compilations {a.max_compilations}): "
              f"{info['rule']}", flush=True)
    print(f"running {len(work)} compilations with {a.jobs} jobs", flush=True)

    per_case = {}
    for c, t in work:
        per_case.setdefault(c, []).append(t)
    results, done, stopped = {}, 0, False
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        pending = set()
        queue = [(c, t) for c in per_case for t in per_case[c]]
        qi = 0
        while qi < len(queue) or pending:
            # keep the pool fed; past the deadline, only finish the cases already started
            while qi < len(queue) and len(pending) < 2 * a.jobs:
                c, t = queue[qi]
                if time.time() - t0 > a.deadline and c not in results:
                    stopped = True
                    qi = len(queue)
                    break
                results.setdefault(c, {})
                pending.add(ex.submit(base.compile_one, a.nvcc, c, t, a.timeout))
                qi += 1
            if not pending:
                break
            finished, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for f in finished:
                c, t, v = f.result()
                results[c][t] = v
                done += 1
                if done % 500 == 0:
                    print(f"{done}/{len(work)} compilations, {time.time() - t0:.0f} s", flush=True)
    elapsed = time.time() - t0

    doc = {"nvcc_version": version,
           "command": "nvcc -cubin -arch=<target> -std=c++17 -o /dev/null <case> (in the case directory)",
           "archs": archs, "plan": info, "cases": {}}
    incomplete = 0
    for c, per in results.items():
        if len(per) < len(per_case[c]):
            incomplete += 1
            continue
        feat, form, _ = cases[c]
        fail = [t for t in archs if t in per and not per[t]["ok"]]
        entry = {"feature": feat, "form": form, "fail": fail,
                 "errors": {t: strip_paths(per[t].get("error", "")) for t in fail}}
        if partial_run:
            entry["compiled"] = [t for t in archs if t in per]
        doc["cases"][c] = entry
    info.update(compiled=done, elapsed_s=round(elapsed, 1), jobs=a.jobs, stopped_at_deadline=stopped,
                cases_left_out_incomplete=incomplete, verdicts=sum(len(results[c]) for c in doc["cases"]))
    dump(doc, a.out)
    print(f"{done} compilations in {elapsed:.1f} s ({a.jobs} jobs); {len(doc['cases'])} cases written to "
          f"{os.path.relpath(a.out)} ({info['verdicts']} case x target verdicts)", flush=True)
    if stopped:
        print(f"stopped at the --deadline of {a.deadline:.0f} s: {incomplete} cases were not compiled for every "
              f"target and are left out; {len(per_case) - len(results)} planned cases were not started", flush=True)


if __name__ == "__main__":
    main()
