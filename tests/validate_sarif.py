#!/usr/bin/env python3
"""Runs cudalint over every fixture case and the demo project with --format sarif and validates
each log against the SARIF 2.1.0 schema, plus the GitHub ingestion rules the schema does not
check (integrations.md §1.8): one location, four region fields, fingerprints, relative URIs,
ruleIndex consistent with ruleId."""
import json
import os
import subprocess
import sys

import jsonschema


def github_checks(log, where):
    errors = []
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    for r in rules:
        for key in ("id", "name", "shortDescription", "fullDescription", "help", "defaultConfiguration"):
            if key not in r:
                errors.append(f"{where}: rule {r.get('id')} lacks {key}")
    for res in run.get("results", []):
        if "ruleIndex" in res and rules[res["ruleIndex"]]["id"] != res["ruleId"]:
            errors.append(f"{where}: ruleIndex does not match ruleId {res['ruleId']}")
        locs = res.get("locations", [])
        if len(locs) != 1:
            errors.append(f"{where}: result needs exactly one location")
            continue
        pl = locs[0]["physicalLocation"]
        uri = pl["artifactLocation"]["uri"]
        if not uri.startswith("file://") and (uri.startswith("/") or "%SRCROOT%" != pl["artifactLocation"].get("uriBaseId")):
            errors.append(f"{where}: uri {uri} must be relative to %SRCROOT%")
        reg = pl.get("region", {})
        for k in ("startLine", "startColumn", "endLine", "endColumn"):
            if k not in reg:
                errors.append(f"{where}: region lacks {k}")
        # Files cudalint could not read as text (binary, unreadable, too large) have no lines to hash.
        unreadable = res["ruleId"] in ("PARSE002", "PARSE003", "PARSE005")
        if "primaryLocationLineHash" not in res.get("partialFingerprints", {}) and not uri.startswith("file://") \
                and not unreadable:
            errors.append(f"{where}: result lacks partialFingerprints.primaryLocationLineHash")
        if not res["message"]["text"]:
            errors.append(f"{where}: empty message")
    return errors


def main():
    binary, source_dir, schema_path = sys.argv[1:4]
    candidates = [os.environ.get("CUDALINT_SARIF_SCHEMA", ""), schema_path,
                  "/work/shared/schemas/sarif-2.1.0.schema.json"]
    schema_path = next((c for c in candidates if c and os.path.exists(c)), schema_path)
    if not os.path.exists(schema_path):
        print(f"SKIP: SARIF schema not found at {schema_path} (set CUDALINT_SARIF_SCHEMA)")
        return 77
    schema = json.load(open(schema_path))
    validator = jsonschema.Draft4Validator(schema)
    targets = [os.path.join(source_dir, "examples", "demo")]
    fixtures = os.path.join(source_dir, "fixtures")
    for rule in sorted(os.listdir(fixtures)):
        for case in sorted(os.listdir(os.path.join(fixtures, rule))):
            targets.append(os.path.join(fixtures, rule, case))
    failures = []
    results = 0
    for t in targets:
        p = subprocess.run([binary, "check", ".", "--format", "sarif", "--no-gitignore"], cwd=t,
                           capture_output=True, text=True, timeout=120)
        if p.returncode not in (0, 1, 2):
            failures.append(f"{t}: exit {p.returncode}: {p.stderr}")
            continue
        try:
            log = json.loads(p.stdout)
        except ValueError as e:
            failures.append(f"{t}: not JSON: {e}")
            continue
        for err in validator.iter_errors(log):
            failures.append(f"{t}: schema: {'/'.join(map(str, err.path))}: {err.message}")
        failures += github_checks(log, t)
        results += len(log["runs"][0].get("results", []))
    demo = subprocess.run([binary, "check", ".", "--format", "sarif"], cwd=targets[0], capture_output=True, text=True)
    if not json.loads(demo.stdout)["runs"][0]["results"]:
        failures.append("the demo project shows no findings")
    for f in failures:
        print(f)
    print(f"validated {len(targets)} SARIF logs, {results} results, {len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
