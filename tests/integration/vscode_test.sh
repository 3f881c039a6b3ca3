#!/usr/bin/env bash
# Builds the VS Code extension (integrations/vscode) the way a release would: `npm ci` from the
# committed package-lock.json, `npx tsc -p .`, `npx @vscode/vsce package`, in a scratch copy (no
# node_modules, out/ or .vsix in the source tree). Then checks the .vsix: the compiled
# extension.js, package.json with its settings and activation events, the runtime dependency
# (vscode-languageclient) resolvable from extension.js, no sources or dev tools packed; and runs
# the packed extension.js's activate() against fakes (vscode/activate_test.js) and the packed
# discover.js's binary discovery against stand-in executables (vscode/discover_test.js).
# With CUDALINT_BINARY it also checks the server side of the contract: `cudalint lsp` started
# as the extension starts it honours the `cudalint.config` it is given in initializationOptions.
# Needs node, npm and the npm registry (for npm ci); fails without them.
# Usage: vscode_test.sh [CUDALINT_BINARY]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../../integrations/vscode" && pwd)
bin=${1:+$(readlink -f "$1")}
for tool in node npm python3; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool is not installed (scripts/install-deps.sh)"; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "node $(node --version), npm $(npm --version 2>/dev/null)"

# The extension's tracked files only (git ls-files when this is a checkout, else all but outputs).
mkdir "$tmp/ext"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$src" && git ls-files -co --exclude-standard . | tar -cf - -T -) | tar -xf - -C "$tmp/ext"
else
  tar -C "$src" --exclude=node_modules --exclude=out --exclude='*.vsix' -cf - . | tar -xf - -C "$tmp/ext"
fi
cd "$tmp/ext"
[[ -f package-lock.json ]] || { echo "FAIL: package-lock.json is not committed"; exit 1; }

echo "== pinned versions"
python3 - <<'PY'
import json, re, sys
pkg = json.load(open("package.json"))
bad = [f"{k}@{v}" for sec in ("dependencies", "devDependencies") for k, v in pkg.get(sec, {}).items()
       if not re.fullmatch(r"\d+\.\d+\.\d+", v)]
if bad:
    sys.exit(f"FAIL: not pinned to exact versions: {bad}")
for need in ("vscode-languageclient", "@vscode/vsce", "typescript", "@types/vscode"):
    if need not in pkg.get("dependencies", {}) and need not in pkg.get("devDependencies", {}):
        sys.exit(f"FAIL: {need} missing from package.json")
lock = json.load(open("package-lock.json"))["packages"]
for sec in ("dependencies", "devDependencies"):
    for k, v in pkg.get(sec, {}).items():
        got = lock.get(f"node_modules/{k}", {}).get("version")
        if got != v:
            sys.exit(f"FAIL: package-lock.json has {k}@{got}, package.json pins {v}")
# @types/vscode may not be newer than engines.vscode (vsce refuses to package otherwise).
if pkg["devDependencies"]["@types/vscode"] != pkg["engines"]["vscode"].lstrip("^"):
    sys.exit("FAIL: @types/vscode does not match engines.vscode")
print("ok: exact versions, lock file in step")
PY

echo "== npm ci"
# No install scripts: only vsce's optional keytar/vsce-sign have any, and packaging needs neither.
# The registry sometimes stalls a response (EIDLETIMEOUT after npm's default 5-minute wait): a
# request gives up after 60 s, and the whole install is tried up to 3 times before the test fails.
for attempt in 1 2 3; do
  if npm ci --ignore-scripts --no-audit --no-fund --fetch-timeout=60000 --fetch-retries=3; then break; fi
  if [[ $attempt == 3 ]]; then echo "FAIL: npm ci failed 3 times (is the npm registry reachable?)"; exit 1; fi
  echo "npm ci failed (attempt $attempt of 3); retrying in $((attempt * 15)) s"
  sleep $((attempt * 15))
done
echo "== npx tsc -p ."
npx tsc -p .
[[ -f out/extension.js ]] || { echo "FAIL: tsc wrote no out/extension.js"; exit 1; }
echo "== npx @vscode/vsce package"
npx @vscode/vsce package --skip-license --allow-missing-repository -o cudalint.vsix

echo "== .vsix contents"
python3 - "$tmp/ext/cudalint.vsix" "$tmp/unpacked" <<'PY'
import json, sys, zipfile
vsix, dest = sys.argv[1], sys.argv[2]
z = zipfile.ZipFile(vsix)
names = set(z.namelist())
for need in ("extension.vsixmanifest", "extension/package.json", "extension/out/extension.js", "extension/out/discover.js",
             "extension/README.md", "extension/node_modules/vscode-languageclient/package.json"):
    if need not in names:
        sys.exit(f"FAIL: {need} is not in the .vsix")
for n in names:
    if n.startswith(("extension/src/", "extension/node_modules/typescript/", "extension/node_modules/@vscode/vsce/")):
        sys.exit(f"FAIL: {n} should not be packed")
pkg = json.loads(z.read("extension/package.json"))
if pkg["main"] != "./out/extension.js":
    sys.exit(f"FAIL: main is {pkg['main']}")
props = pkg["contributes"]["configuration"]["properties"]
for key in ("cudalint.path", "cudalint.config", "cudalint.args"):
    if key not in props:
        sys.exit(f"FAIL: setting {key} not contributed")
events = set(pkg["activationEvents"])
for lang in ("cuda-cpp", "cpp", "python", "dockerfile", "cmake", "toml"):
    if f"onLanguage:{lang}" not in events:
        sys.exit(f"FAIL: no activation on {lang}")
js = z.read("extension/out/extension.js").decode()
for needle in ('"lsp"', "vscode-languageclient/node", "cudalint.path", "cudalint.config", "cudalint.args"):
    if needle not in js:
        sys.exit(f"FAIL: extension.js does not mention {needle}")
z.extractall(dest)
print(f"ok: {len(names)} files; extension.js, package.json, vscode-languageclient packed")
PY
# extension.js's require("vscode-languageclient/node") resolves inside the unpacked extension.
node -e 'console.log("ok: resolves", require.resolve("vscode-languageclient/node", {paths: [process.argv[1]]}))' \
  "$tmp/unpacked/extension/out"
ls -l cudalint.vsix
echo "== activate() with fake vscode and languageclient modules"
node "$here/vscode/activate_test.js" "$tmp/unpacked/extension/out/extension.js"
echo "== binary discovery (cudalint.path, PATH, the wheel's install) with stand-in executables"
node "$here/vscode/discover_test.js" "$tmp/unpacked/extension/out/discover.js"

if [[ -n $bin ]]; then
  echo "== cudalint lsp with the extension's initializationOptions"
  cp "$bin" "$tmp/cudalint"  # a private copy: a rebuild of the shared build dir relinks $bin
  python3 - "$tmp/cudalint" "$tmp/ws" <<'PY'
import json, os, subprocess, sys
bin_, ws = sys.argv[1], sys.argv[2]
os.makedirs(os.path.join(ws, "ci"))
open(os.path.join(ws, "Dockerfile"), "w").write(
    'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="sm_80"\n')
open(os.path.join(ws, "ci", "cudalint.toml"), "w").write('ignore = ["ARCH004"]\n')

def codes(config):
    p = subprocess.Popen([bin_, "lsp"], cwd=ws, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    def send(msg):
        body = json.dumps(msg).encode()
        p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        p.stdin.flush()
    def recv():
        n = 0
        while (line := p.stdout.readline().strip()):
            if line.lower().startswith(b"content-length:"):
                n = int(line.split(b":")[1])
        return json.loads(p.stdout.read(n))
    uri = "file://" + os.path.join(ws, "Dockerfile")
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": None, "rootUri": "file://" + ws, "capabilities": {},
        "initializationOptions": {"cudalint": {"config": config}}}})
    while recv().get("id") != 1:
        pass
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "dockerfile", "version": 1,
        "text": open(os.path.join(ws, "Dockerfile")).read()}}})
    while True:
        m = recv()
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
            break
    send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    while recv().get("id") != 2:
        pass
    send({"jsonrpc": "2.0", "method": "exit"})
    p.wait(timeout=30)
    return sorted(d.get("code") for d in m["params"]["diagnostics"])

plain, configured = codes(""), codes(os.path.join(ws, "ci", "cudalint.toml"))
print(f"diagnostics without cudalint.config: {plain}; with ci/cudalint.toml: {configured}")
if "ARCH004" not in plain or "ARCH004" in configured:
    sys.exit("FAIL: cudalint.config (initializationOptions) not honoured")
print("ok: cudalint.config reaches the server")
PY
fi
echo "OK: VS Code extension built and packaged"
