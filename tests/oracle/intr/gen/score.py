#!/usr/bin/env python3
"""Scores cudalint's INTR rules against the generated oracle's nvcc verdicts (verdicts.json).

    python3 tests/oracle/intr/gen/score.py path/to/cudalint [--min 95] [-j 2] [-v]

The cases are written again by generate.py (deterministic) into a temporary directory; for each
target of verdicts.json, one run checks every case that was compiled for it:

    cudalint check <cases...> --target-archs <target> --select INTR --format json -j N

"cudalint rejects" a case for a target when it reports an INTR finding of severity `error` in
it; nvcc rejects it when the target is in the case's `fail` list. Prints agreement overall, per
form and per kind of disagreement (misses: nvcc rejects, cudalint silent; false rejections),
lists the disagreements with -v, and exits 1 below --min percent or on any false rejection of
a case nvcc accepts with --no-false-rejections.
"""
import argparse, collections, json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cudalint")
    ap.add_argument("--verdicts", default=os.path.join(HERE, "verdicts.json"))
    ap.add_argument("--min", type=float, default=95.0)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--no-false-rejections", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    v = json.load(open(a.verdicts))
    cases = v["cases"]
    cudalint = os.path.abspath(a.cudalint)
    with tempfile.TemporaryDirectory(prefix="cudalint-intr-gen-") as tmp:
        subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), "--out", tmp,
                        "--skipped", os.path.join(tmp, "skipped.tsv")], check=True,
                       stdout=subprocess.DEVNULL)
        missing = [c for c in cases if not os.path.exists(os.path.join(tmp, c))]
        if missing:
            print(f"generate.py no longer writes {len(missing)} scored cases (e.g. {missing[0]}): regenerate the verdicts")
            return 2
        cache = os.path.join(tmp, ".cache")
        total = agree = 0
        by_form = collections.Counter()
        by_form_ok = collections.Counter()
        misses, false_rej = [], []
        for target in v["archs"]:
            # a sampled run records the targets each case was compiled for ("compiled")
            names = sorted(c for c in cases if target in cases[c].get("compiled", v["archs"]))
            p = subprocess.run([cudalint, "check", *names, "--target-archs", target, "--select", "INTR",
                                "--format", "json", "-j", str(a.jobs), "--cache-dir", cache],
                               cwd=tmp, capture_output=True, text=True)
            if p.returncode not in (0, 1):
                print(p.stderr)
                return 2
            rejected = {}
            for f in json.loads(p.stdout)["findings"]:
                if f["severity"] == "error" and f["rule"].startswith("INTR"):
                    rejected.setdefault(os.path.basename(f["path"]), f["message"])
            for name in names:
                nv = target in cases[name]["fail"]
                cl = name in rejected
                total += 1
                form = cases[name]["form"]
                by_form[form] += 1
                if nv == cl:
                    agree += 1
                    by_form_ok[form] += 1
                elif nv:
                    misses.append((name, target, cases[name].get("errors", {}).get(target, "")))
                else:
                    false_rej.append((name, target, rejected[name]))
        pct = 100.0 * agree / total if total else 0.0
        print(f"{agree}/{total} case x target verdicts agree ({pct:.2f}%): {len(misses)} misses (nvcc rejects, "
              f"cudalint silent), {len(false_rej)} false rejections")
        for form in sorted(by_form):
            print(f"  {form:24} {by_form_ok[form]}/{by_form[form]}")
        shown = misses + false_rej if a.verbose else (misses + false_rej)[:15]
        for name, target, why in shown:
            kind = "miss" if (name, target, why) in misses else "false rejection"
            print(f"  {kind}: {name} {target}: {why[:160]}")
        if pct < a.min or (a.no_false_rejections and false_rej):
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
