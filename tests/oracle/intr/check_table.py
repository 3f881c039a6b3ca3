#!/usr/bin/env python3
"""Checks data/cuda_features.tsv against the nvcc verdicts in expected.json, without nvcc.

    python3 tests/oracle/intr/check_table.py [--table data/cuda_features.tsv] [--sample 12] [--seed 1]

Each case declares in its leading comment what it exercises:
    // feature: NAME                 NAME is used, unguarded, in device code every target compiles
    // feature: NAME if <#if-expr>   NAME is used under a preprocessor guard (evaluated per target)
    // expect: ok                    nvcc must accept the case for every target
For the toolkit of expected.json (its nvcc version), the table predicts that a case fails for a
target exactly when one of its features is unavailable there (min_sm, the arch-specific target
list, or, for removed features, from min_sm on). The prediction must equal nvcc's verdict for
every target; agreement is reported per target and any difference fails the check.

When nvcc of the same version is on the machine ($NVCC, /usr/local/cuda/bin/nvcc or PATH), a
seeded random sample of (case, target) pairs is compiled again to check that expected.json still
holds; without nvcc that part is skipped with a message.
"""
import argparse
import json
import os
import random
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))


def sm_of(t):
    return int(re.fullmatch(r"sm_(\d+)[af]?", t).group(1))


def version_tuple(s):
    if s in ("-", ""):
        return None
    p = s.split(".")
    return int(p[0]), int(p[1]) if len(p) > 1 else 0


def load_table(path):
    rows = {}
    header = None
    for no, line in enumerate(open(path), 1):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        f = line.split("\t")
        if header is None:
            header = f
            if f != ["feature", "kind", "min_sm", "arch_specific", "cuda_from", "cuda_until", "source"]:
                sys.exit(f"{path}:{no}: unexpected header {f}")
            continue
        if len(f) != 7:
            sys.exit(f"{path}:{no}: {len(f)} columns, expected 7")
        feat, kind, min_sm, spec, cfrom, cuntil, src = f
        if kind not in ("function", "type", "ptx", "deprecated"):
            sys.exit(f"{path}:{no}: unknown kind {kind}")
        rows.setdefault(feat, []).append({"kind": kind, "min_sm": int(min_sm),
                                          "targets": None if spec == "-" else set(spec.split(",")),
                                          "from": version_tuple(cfrom), "until": version_tuple(cuntil),
                                          "source": src, "line": no})
    return rows


def find(rows, feature, cuda):
    """The row for `feature` under toolkit `cuda`: exact name, else the longest dotted prefix."""
    name = feature
    while True:
        for r in rows.get(name, []):
            if (r["from"] is None or cuda >= r["from"]) and (r["until"] is None or cuda < r["until"]):
                return name, r
        if "." not in name or name.startswith("%"):
            return None, None
        name = name.rsplit(".", 1)[0]


def available(row, target):
    if row["kind"] == "deprecated":
        return sm_of(target) < row["min_sm"]
    if row["targets"] is not None:
        return target in row["targets"]
    return sm_of(target) >= row["min_sm"]


def target_macros(t):
    m = re.fullmatch(r"sm_(\d+)([af]?)", t)
    arch = int(m.group(1)) * 10
    d = {"__CUDA_ARCH__": arch, "__CUDACC__": 1, "__NVCC__": 1, "__CUDACC_VER_MAJOR__": 13}
    if m.group(2) == "a":
        d.update({f"__CUDA_ARCH_FEAT_SM{arch // 10}_ALL": 1, "__CUDA_ARCH_SPECIFIC__": arch,
                  "__CUDA_ARCH_FAMILY_SPECIFIC__": arch})
    elif m.group(2) == "f":
        d["__CUDA_ARCH_FAMILY_SPECIFIC__"] = arch
    return d


def eval_if(expr, macros):
    e = re.sub(r"defined\s*\(\s*(\w+)\s*\)|defined\s+(\w+)",
               lambda m: "1" if (m.group(1) or m.group(2)) in macros else "0", expr)
    e = re.sub(r"\b[A-Za-z_]\w*\b", lambda m: str(macros.get(m.group(0), 0)), e)
    e = e.replace("&&", " and ").replace("||", " or ")
    e = re.sub(r"!(?!=)", " not ", e)
    return bool(eval(e, {"__builtins__": {}}))


def case_header(path):
    feats, ok = [], False
    for line in open(path):
        if not line.startswith("//"):
            break
        # a name may hold spaces inside <...> (`nvcuda::wmma::fragment<unsigned char>`)
        m = re.match(r"//\s*feature:\s*((?:[^\s<]|<[^>]*>)+)(?:\s+if\s+(.+))?\s*$", line)
        if m:
            feats.append((m.group(1), m.group(2)))
        if re.match(r"//\s*expect:\s*ok\b", line):
            ok = True
    return feats, ok


def find_nvcc():
    for c in (os.environ.get("NVCC"), "/usr/local/cuda/bin/nvcc", shutil.which("nvcc")):
        if c and os.path.exists(c) and os.access(c, os.X_OK):
            return c
    return None


def recheck(expected, sample, seed):
    nvcc = find_nvcc()
    if not nvcc:
        print("nvcc not found: skipping the re-compilation of a sample (expected.json is taken as recorded)")
        return 0
    sys.path.insert(0, HERE)
    import run_nvcc
    version = run_nvcc.nvcc_version(nvcc)
    if version != expected["nvcc_version"]:
        print(f"nvcc {version} is not the nvcc {expected['nvcc_version']} of expected.json: skipping the re-compilation"
              " (regenerate with run_nvcc.py)")
        return 0
    pairs = sorted((c, a) for c in expected["cases"] for a in expected["archs"])
    rng = random.Random(seed)
    picked = rng.sample(pairs, min(sample, len(pairs)))
    # half of the sample from recorded failures, so that both verdicts are exercised
    fails = [p for p in pairs if not expected["cases"][p[0]][p[1]]["ok"]]
    if fails:
        picked = picked[: (len(picked) + 1) // 2] + rng.sample(fails, min(sample // 2, len(fails)))
    bad = 0
    for c, a in picked:
        _, _, v = run_nvcc.compile_one(nvcc, c, a, 300)
        want = expected["cases"][c][a]["ok"]
        if v["ok"] != want:
            bad += 1
            print(f"STALE expected.json: {c} {a}: recorded ok={want}, nvcc {version} now ok={v['ok']} {v.get('error', '')}")
    print(f"re-compiled {len(picked)} (case, target) pairs with nvcc {version} (seed {seed}): "
          f"{len(picked) - bad} match expected.json")
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--table", default=os.path.join(ROOT, "data", "cuda_features.tsv"))
    ap.add_argument("--expected", default=os.path.join(HERE, "expected.json"))
    ap.add_argument("--sample", type=int, default=12, help="(case, target) pairs re-compiled when nvcc is present")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-nvcc", action="store_true", help="never run nvcc")
    ap.add_argument("--allow-missing", action="store_true", help="tolerate pairs run_nvcc.py has not compiled yet")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()

    rows = load_table(a.table)
    expected = json.load(open(a.expected))
    archs = expected["archs"]
    cuda = tuple(int(x) for x in expected["nvcc_version"].split(".")[:2])
    cases_dir = os.path.join(HERE, "cases")

    agree = {t: 0 for t in archs}
    total = {t: 0 for t in archs}
    problems, unconstrained, unchecked = [], set(), []
    missing_verdicts = 0
    for name in sorted(expected["cases"]):
        path = os.path.join(cases_dir, name)
        if not os.path.exists(path):
            problems.append(f"{name}: in expected.json but not in cases/ (re-run run_nvcc.py)")
            continue
        feats, ok = case_header(path)
        if not feats and not ok:
            unchecked.append(name)
            continue
        resolved = []
        for feat, cond in feats:
            key, row = find(rows, feat, cuda)
            if row is None:
                unconstrained.add(feat)
            resolved.append((feat, cond, key, row))
        for t in archs:
            macros = target_macros(t)
            missing = [f"{feat} ({key}: {'removed from' if row['kind'] == 'deprecated' else 'needs'} "
                       f"{'sm_' + str(row['min_sm']) if row['targets'] is None else ','.join(sorted(row['targets']))})"
                       for feat, cond, key, row in resolved
                       if row is not None and (cond is None or eval_if(cond, macros)) and not available(row, t)]
            predicted_ok = ok or not missing
            got = expected["cases"][name].get(t)
            if got is None:
                missing_verdicts += 1
                continue
            total[t] += 1
            if got["ok"] == predicted_ok:
                agree[t] += 1
            else:
                why = "; ".join(missing) if missing else "table: every feature available"
                problems.append(f"{name} {t}: nvcc {'accepts' if got['ok'] else 'rejects'}, table predicts "
                                f"{'ok' if predicted_ok else 'failure'} ({why})"
                                + ("" if got["ok"] else f"\n    nvcc: {got.get('error', '')}"))

    n_checked = len(expected["cases"]) - len(unchecked)
    print(f"table {os.path.relpath(a.table, ROOT)} vs nvcc {expected['nvcc_version']}: "
          f"{n_checked} cases with a feature/expect header, {len(unchecked)} without")
    print("agreement per target: " + ", ".join(f"{t} {agree[t]}/{total[t]}" for t in archs))
    s_agree, s_total = sum(agree.values()), sum(total.values())
    print(f"overall: {s_agree}/{s_total} verdicts agree ({100.0 * s_agree / max(s_total, 1):.2f}%)")
    if unconstrained and a.verbose:
        print("features without a row (available on every target): " + ", ".join(sorted(unconstrained)))
    for p in problems:
        print("DISAGREE " + p)
    bad = len(problems)
    if missing_verdicts:
        print(f"{missing_verdicts} (case, target) pairs have no nvcc verdict in expected.json (run run_nvcc.py)")
        if not a.allow_missing:
            bad += 1
    if not a.no_nvcc:
        bad += recheck(expected, a.sample, a.seed)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
