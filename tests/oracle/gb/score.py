#!/usr/bin/env python3
"""Scores cudalint's graph-break rules (GB) against Dynamo's verdicts in dynamo_truth.json.

    python3 tests/oracle/gb/score.py path/to/cudalint [--verbose]
    python3 tests/oracle/gb/score.py path/to/cudalint --corpus registry/corpus \
        --truth registry/dynamo_truth.json --min-precision 0 --min-recall 0 [--by-id]

Each corpus case (a compiled function or module, see run_dynamo.py) has Dynamo's verdict
`breaks_as_written`: with fullgraph=True in the source, whether that compile raises; otherwise
whether the default compile breaks the graph. cudalint predicts a break for a case when it
reports any GB finding attributed to that case: the finding lies inside the case's own source
lines, or one of its related locations is the case's compiled region ("compiled region `X`
starts here"), which is how a break inside a helper is tied to the entry that reaches it.

Prints precision and recall over cases, every false positive and every miss, and exits 1 below
the goals of issue 5 (precision >= 95%, recall >= 80%).
"""
import argparse
import ast
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def case_spans(corpus):
    """(file, case name) -> (first line incl. decorators, last line) of module-level definitions."""
    spans = {}
    for name in sorted(os.listdir(corpus)):
        if not name.endswith(".py"):
            continue
        tree = ast.parse(open(os.path.join(corpus, name), encoding="utf-8").read())
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                spans[(name, node.name)] = (first, node.end_lineno)
    return spans


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cudalint")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--corpus", default="corpus", help="relative to this directory")
    ap.add_argument("--truth", default="dynamo_truth.json", help="relative to this directory")
    ap.add_argument("--min-precision", type=float, default=0.95)
    ap.add_argument("--min-recall", type=float, default=0.80)
    ap.add_argument("--by-id", action="store_true", help="recall per Dynamo registry id of the breaking cases")
    a = ap.parse_args()
    corpus = os.path.join(HERE, a.corpus)
    truth = json.load(open(os.path.join(HERE, a.truth)))
    p = subprocess.run([os.path.abspath(a.cudalint), "check", "--select", "GB", "--format", "json", "."],
                       cwd=corpus, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        print(p.stderr, file=sys.stderr)
        return 2
    doc = json.loads(p.stdout)
    findings = doc["findings"] if isinstance(doc, dict) else doc
    spans = case_spans(corpus)

    def attributed(case):
        entry = case["entry"]
        span = spans.get((entry["file"], entry["qualname"].split(".")[0]))
        hits = []
        for f in findings:
            line = f["region"]["start_line"]
            inside = span and f["path"] == entry["file"] and span[0] <= line <= span[1]
            via = any(r["path"] == entry["file"] and r["region"]["start_line"] == entry["line"]
                      and "compiled region" in r["message"] for r in f["related"])
            if inside or via:
                hits.append(f)
        return hits

    tp = fp = fn = tn = 0
    wrong = []
    per_id = {}  # registry id -> [found, breaking cases]
    for case in truth["cases"]:
        if not case.get("eager_ok", True):
            continue  # the case itself is broken Python: no verdict to compare with
        hits = attributed(case)
        predicted, actual = bool(hits), bool(case["breaks_as_written"])
        where = f'{case["file"]}:{case["line"]} {case["case"]}'
        if actual:
            ids = sorted({b["id"] for b in case.get("breaks", []) if b.get("id")} |
                         ({case["fullgraph_error"]["id"]} if (case.get("fullgraph_error") or {}).get("id") else set()))
            for i in ids or ["?"]:
                per_id.setdefault(i, [0, 0])
                per_id[i][0] += predicted
                per_id[i][1] += 1
        if predicted and actual:
            tp += 1
        elif predicted:
            fp += 1
            wrong.append(f"FP   {where}: cudalint {[h['rule'] for h in hits]}, Dynamo: no break")
        elif actual:
            fn += 1
            ids = sorted({b["id"] for b in case.get("breaks", [])} |
                         ({case["fullgraph_error"]["id"]} if case.get("fullgraph_error") else set()))
            wrong.append(f"MISS {where}: Dynamo {ids}, cudalint: nothing")
        else:
            tn += 1
        if a.verbose:
            print(f"{'break' if actual else 'ok   '} {'break' if predicted else 'ok   '} {where}")
    for w in wrong:
        print(w)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    print(f"cases {tp + fp + fn + tn}: breaking {tp + fn}, clean {fp + tn}; "
          f"TP {tp} FP {fp} FN {fn} TN {tn}; precision {precision:.1%}, recall {recall:.1%}")
    if a.by_id:
        for i, (found, n) in sorted(per_id.items()):
            print(f"{i}: {found}/{n}")
        print(f"registry ids with a breaking case: {len(per_id)}; found for at least one case: "
              f"{sum(1 for f, _ in per_id.values() if f)}")
    return 0 if precision >= a.min_precision and recall >= a.min_recall else 1


if __name__ == "__main__":
    sys.exit(main())
