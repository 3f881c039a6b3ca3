// The VS Code extension's binary discovery (integrations/vscode/src/discover.ts, compiled), without
// VS Code: scratch directories with stand-in executables for cudalint and for a python3 whose
// `cudalint` package (the wheel's, scripts/build-wheel.py) answers find_cudalint_bin().
// Order: the cudalint.path setting, PATH, the wheel's install through python (the workspace's
// .venv first), the pip scripts directories (.venv/bin, venv/bin, ~/.local/bin).
// Usage: node discover_test.js DISCOVER_JS
"use strict";
const assert = require("assert");
const fs = require("fs");
const os = require("os");
const path = require("path");

const { discover, which } = require(path.resolve(process.argv[2]));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cudalint-discover-"));

function exe(file, body = "#!/bin/sh\necho cudalint 0.1.0\n") {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, body, { mode: 0o755 });
  return file;
}
// A python3 stand-in: answers the wheel's find_cudalint_bin() with `target`, anything else fails.
function python(file, target) {
  return exe(file, `#!/bin/sh\ncase "$2" in *find_cudalint_bin*) printf %s '${target}' ;; *) exit 1 ;; esac\n`);
}

async function main() {
  const folder = path.join(tmp, "project");
  const home = path.join(tmp, "home");
  fs.mkdirSync(folder, { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  const empty = path.join(tmp, "emptybin");
  fs.mkdirSync(empty);
  const env = (...dirs) => ({ PATH: dirs.join(path.delimiter) });

  // Nothing anywhere: undefined (the extension then tries `cudalint` and reports the error).
  assert.strictEqual(await discover("", { folder, home, env: env(empty) }), undefined);
  assert.strictEqual(await discover("cudalint", { folder, home, env: env(empty) }), undefined);

  // 1. The setting: a path is used as it is (relative to the workspace folder), even when absent.
  assert.deepStrictEqual(await discover("/opt/cudalint/bin/cudalint", { folder, home, env: env(empty) }),
    { command: "/opt/cudalint/bin/cudalint", source: "setting" });
  assert.deepStrictEqual(await discover("build/cudalint", { folder, home, env: env(empty) }),
    { command: path.join(folder, "build/cudalint"), source: "setting" });
  // A bare name other than the default is looked up on PATH.
  const pathDir = path.join(tmp, "pathbin");
  const onPath = exe(path.join(pathDir, "cudalint"));
  const dev = exe(path.join(pathDir, "cudalint-dev"));
  assert.deepStrictEqual(await discover("cudalint-dev", { folder, home, env: env(empty, pathDir) }),
    { command: dev, source: "setting" });
  assert.deepStrictEqual(await discover("cudalint-dev", { folder, home, env: env(empty) }),
    { command: "cudalint-dev", source: "setting" });

  // 2. PATH: the first executable cudalint; a non-executable file is skipped.
  const notExec = path.join(tmp, "noexec", "cudalint");
  fs.mkdirSync(path.dirname(notExec));
  fs.writeFileSync(notExec, "", { mode: 0o644 });
  assert.strictEqual(which("cudalint", env(path.dirname(notExec), pathDir)), onPath);
  assert.deepStrictEqual(await discover("", { folder, home, env: env(path.dirname(notExec), pathDir) }),
    { command: onPath, source: "PATH" });
  // The setting beats PATH.
  assert.strictEqual((await discover("/x/cudalint", { folder, home, env: env(pathDir) })).command, "/x/cudalint");

  // 3. The wheel: python3 on PATH knows where its cudalint is.
  const wheelBin = exe(path.join(tmp, "site", "bin", "cudalint"));
  const pyDir = path.join(tmp, "pybin");
  python(path.join(pyDir, "python3"), wheelBin);
  assert.deepStrictEqual(await discover("", { folder, home, env: env(empty, pyDir) }),
    { command: wheelBin, source: `python wheel (${path.join(pyDir, "python3")})` });
  // PATH beats the wheel.
  assert.strictEqual((await discover("", { folder, home, env: env(pyDir, pathDir) })).source, "PATH");
  // A python without the package (or naming a missing file) is passed over.
  const badPy = path.join(tmp, "badpy");
  exe(path.join(badPy, "python3"), "#!/bin/sh\necho 'ModuleNotFoundError' >&2; exit 1\n");
  python(path.join(badPy, "python"), path.join(tmp, "missing", "cudalint"));
  assert.strictEqual(await discover("", { folder, home, env: env(badPy) }), undefined);
  // The workspace's .venv python comes before PATH's python3.
  const venvBin = exe(path.join(tmp, "venv-site", "bin", "cudalint"));
  python(path.join(folder, ".venv", "bin", "python"), venvBin);
  assert.deepStrictEqual(await discover("", { folder, home, env: env(pyDir) }),
    { command: venvBin, source: `python wheel (${path.join(folder, ".venv", "bin", "python")})` });
  fs.rmSync(path.join(folder, ".venv"), { recursive: true });

  // 4. The pip scripts directories, when no python answers: the workspace's venv, ~/.local/bin.
  const userBin = exe(path.join(home, ".local", "bin", "cudalint"));
  assert.deepStrictEqual(await discover("", { folder, home, env: env(badPy) }),
    { command: userBin, source: "pip scripts directory" });
  const venvScript = exe(path.join(folder, "venv", "bin", "cudalint"));
  assert.deepStrictEqual(await discover("", { folder, home, env: env(empty) }),
    { command: venvScript, source: "pip scripts directory" });
  // Without a workspace folder, only ~/.local/bin.
  assert.strictEqual((await discover("", { home, env: env(empty) })).command, userBin);

  // A python that hangs does not hang the extension.
  const slowPy = path.join(tmp, "slowpy");
  exe(path.join(slowPy, "python3"), "#!/bin/sh\nexec sleep 30\n");
  const t0 = Date.now();
  assert.strictEqual((await discover("", { home, env: env(slowPy), timeoutMs: 300 })).command, userBin);
  assert.ok(Date.now() - t0 < 5000, "the python timeout is not honoured");

  console.log("ok: binary discovery (setting, PATH, python wheel, pip scripts directories)");
}

main()
  .catch((e) => {
    console.error("FAIL:", e);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(tmp, { recursive: true, force: true }));
