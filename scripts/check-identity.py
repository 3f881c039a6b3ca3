#!/usr/bin/env python3
"""Fails when the docs and integrations name another repository or release than the build.

    python3 scripts/check-identity.py REPOSITORY_URL VERSION [ROOT]

REPOSITORY_URL is CMake's CUDALINT_REPOSITORY_URL (cmake/version.cmake), VERSION the project
VERSION. Checked files: README.md, pyproject.toml, the GitHub Action (action.yml, install.sh, README)
and the GitLab template. No placeholder (`<owner>`, `<tag>`, `<host>`) is left; every GitHub repository URL or `owner/name`
action reference that names cudalint is REPOSITORY_URL's; every release reference (`rev:`, `@v`,
`/raw/` tag) is `v<VERSION>`, and every release version the integrations install by default
(the action's `version` input, GitLab's `CUDALINT_VERSION`, `version: X.Y.Z` and `v=X.Y.Z` in
examples) is `<VERSION>`.
"""
import os
import re
import sys

FILES = ["README.md", "pyproject.toml", "integrations/github/action.yml", "integrations/github/README.md",
         "integrations/github/install.sh",
         "integrations/gitlab/cudalint.gitlab-ci.yml"]


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    url, version = sys.argv[1].rstrip("/"), sys.argv[2]
    root = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    m = re.fullmatch(r"https://github\.com/([^/]+/[^/]+)", url)
    slug = m.group(1) if m else None
    tag = "v" + version
    bad = []
    for rel in FILES:
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            text = f.read()
        lines = text.splitlines()
        # action.yml's `version` input: its default is on a line of its own.
        m = re.search(r"\n  version:\n(?:    .*\n)*?    default: \"?v?([^\"\n]+)", text) if rel.endswith("action.yml") else None
        if m and m.group(1) != version:
            bad.append(f"{rel}: input version defaults to {m.group(1)}, not {version}")
        for n, line in enumerate(lines, 1):
            where = f"{rel}:{n}"
            for ph in ("<owner>", "<tag>", "<host>"):
                if ph in line:
                    bad.append(f"{where}: placeholder {ph}")
            for u in re.findall(r"https://github\.com/[\w.-]+/cudalint\b(?:\.git)?", line):
                if u.removesuffix(".git") != url:
                    bad.append(f"{where}: {u} is not {url}")
            for s, t in re.findall(r"uses:\s*([\w.-]+/cudalint)/integrations/github@(\S+)", line):
                if slug and s != slug:
                    bad.append(f"{where}: action {s} is not {slug}")
                if t != tag:
                    bad.append(f"{where}: action version {t} is not {tag}")
            for s, t in re.findall(r"raw\.githubusercontent\.com/([\w.-]+/cudalint)/([^/\s]+)/", line):
                if slug and s != slug:
                    bad.append(f"{where}: {s} is not {slug}")
                if t != tag:
                    bad.append(f"{where}: raw file at {t}, not {tag}")
            for v in re.findall(r"(?:\bversion:|CUDALINT_VERSION:|\bv=)\s*\"?v?(\d+\.\d+\.\d+[^\"\s]*)", line):
                if v != version:
                    bad.append(f"{where}: release version {v} is not {version}")
            r = re.match(r"\s*rev:\s*(\S+)", line)
            if r and r.group(1) != tag:
                bad.append(f"{where}: rev {r.group(1)} is not {tag}")
    for b in bad:
        print(b)
    if bad:
        print(f"FAILED: {len(bad)} reference(s) disagree with {url} {tag}")
        return 1
    print(f"OK: every reference is {url} at {tag}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
