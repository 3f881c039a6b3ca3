// Activation test of the packaged extension (integrations/vscode) without VS Code: `vscode` and
// `vscode-languageclient/node` are replaced by recording fakes, then activate() runs. Checks the
// server command (`<cudalint.path> lsp <cudalint.args...>`), the settings' expansion, the document
// selector, initializationOptions, the restart on a settings change, the error path when the
// executable cannot start, and the middleware that answers the server's configuration requests.
// Discovery (discover_test.js covers it) sees a scratch PATH and HOME only.
// Usage: node activate_test.js EXTENSION_JS
"use strict";
const assert = require("assert");
const fs = require("fs");
const Module = require("module");
const os = require("os");
const path = require("path");

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cudalint-activate-"));
const pathDir = path.join(scratch, "bin");
fs.mkdirSync(pathDir);
fs.mkdirSync(path.join(scratch, "home"));
process.env.PATH = pathDir;
process.env.HOME = path.join(scratch, "home");
process.on("exit", () => fs.rmSync(scratch, { recursive: true, force: true }));

const folder = "/work/project";
let settings = {};
const clients = [];
const errors = [];
const lines = [];
const commands = {};
const configListeners = [];
let failStart = false;

const fakeVscode = {
  workspace: {
    workspaceFolders: [{ uri: { fsPath: folder } }],
    getConfiguration: (section) => {
      assert.strictEqual(section, "cudalint");
      return { get: (key, dflt) => (key in settings ? settings[key] : dflt) };
    },
    onDidChangeConfiguration: (fn) => {
      configListeners.push(fn);
      return { dispose() {} };
    },
  },
  window: {
    createOutputChannel: (name) => ({ name, lines, show() {}, dispose() {}, appendLine: (l) => lines.push(l) }),
    showErrorMessage: async (msg, ...items) => {
      errors.push(msg);
      return undefined;
    },
  },
  commands: {
    registerCommand: (id, fn) => {
      commands[id] = fn;
      return { dispose() {} };
    },
    executeCommand: async () => undefined,
  },
};

class FakeLanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    Object.assign(this, { id, name, serverOptions, clientOptions, started: false, stopped: false });
    clients.push(this);
  }
  async start() {
    if (failStart) throw new Error("spawn nope ENOENT");
    this.started = true;
  }
  async stop() {
    this.stopped = true;
  }
}
const fakeClientLib = {
  LanguageClient: FakeLanguageClient,
  TransportKind: { stdio: 0, ipc: 1 },
  RevealOutputChannelOn: { Info: 1, Warn: 2, Error: 3, Never: 4 },
};

const origLoad = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === "vscode") return fakeVscode;
  if (request === "vscode-languageclient/node") return fakeClientLib;
  return origLoad.call(this, request, parent, isMain);
};

async function main() {
  const ext = require(path.resolve(process.argv[2]));
  const context = { subscriptions: [] };

  // Defaults, nothing installed: `cudalint lsp`, no config (the start's error names the setting).
  await ext.activate(context);
  assert.strictEqual(clients.length, 1);
  let c = clients[0];
  assert.ok(c.started);
  assert.strictEqual(c.serverOptions.command, "cudalint");
  assert.ok(lines.some((l) => l.includes("not found")), lines.join("\n"));
  assert.deepStrictEqual(c.serverOptions.args, ["lsp"]);
  assert.strictEqual(c.serverOptions.transport, 0);
  assert.strictEqual(c.serverOptions.options.cwd, folder);
  assert.deepStrictEqual(c.clientOptions.initializationOptions, { cudalint: { config: "" } });
  const langs = c.clientOptions.documentSelector.map((s) => s.language).filter(Boolean);
  for (const l of ["cuda-cpp", "cpp", "python", "dockerfile", "cmake", "toml"]) assert.ok(langs.includes(l), l);
  const pattern = c.clientOptions.documentSelector.find((s) => s.pattern).pattern;
  for (const f of ["Dockerfile", "CMakeLists.txt", "requirements*.txt", "*.cu"]) assert.ok(pattern.includes(f), f);
  assert.ok(commands["cudalint.restart"] && commands["cudalint.showOutput"]);
  assert.ok(context.subscriptions.length >= 4);

  // A settings change restarts the server with the new, expanded settings.
  settings = { path: "${workspaceFolder}/build/cudalint", args: ["-j", "4"], config: "ci/cudalint.toml" };
  await configListeners[0]({ affectsConfiguration: (k) => k === "cudalint.path" });
  assert.strictEqual(clients.length, 2);
  assert.ok(clients[0].stopped);
  c = clients[1];
  assert.strictEqual(c.serverOptions.command, `${folder}/build/cudalint`);
  assert.deepStrictEqual(c.serverOptions.args, ["lsp", "-j", "4"]);
  assert.deepStrictEqual(c.clientOptions.initializationOptions, { cudalint: { config: `${folder}/ci/cudalint.toml` } });

  // The server's workspace/configuration request gets the expanded config path.
  const answer = await c.clientOptions.middleware.workspace.configuration(
    { items: [{ section: "cudalint" }, { section: "other" }] }, undefined,
    async () => [{ path: "x", config: "ci/cudalint.toml" }, { k: 1 }]);
  assert.deepStrictEqual(answer, [{ path: "x", config: `${folder}/ci/cudalint.toml` }, { k: 1 }]);

  // Empty setting, cudalint on PATH: discovered (the output channel says where from).
  const onPath = path.join(pathDir, "cudalint");
  fs.writeFileSync(onPath, "#!/bin/sh\n", { mode: 0o755 });
  settings = { path: "" };
  await commands["cudalint.restart"]();
  assert.strictEqual(clients.at(-1).serverOptions.command, onPath);
  assert.ok(lines.at(-1).includes("from PATH"), lines.at(-1));
  fs.rmSync(onPath);
  settings = { path: "${workspaceFolder}/build/cudalint", args: ["-j", "4"], config: "ci/cudalint.toml" };
  await commands["cudalint.restart"]();
  const before = clients.length;

  // Unrelated settings do not restart it; `~` expands to the home directory.
  await configListeners[0]({ affectsConfiguration: (k) => k === "editor.fontSize" });
  assert.strictEqual(clients.length, before);
  settings = { path: "~/bin/cudalint" };
  await commands["cudalint.restart"]();
  assert.strictEqual(clients.at(-1).serverOptions.command, path.join(os.homedir(), "bin/cudalint"));

  // An executable that cannot start: an error message naming the setting, no client kept.
  failStart = true;
  await commands["cudalint.restart"]();
  assert.strictEqual(errors.length, 1);
  assert.ok(errors[0].includes("cudalint.path"), errors[0]);
  await ext.deactivate();

  console.log(`ok: activation, settings, restart and error path (${clients.length} clients started)`);
}

main().catch((e) => {
  console.error("FAIL:", e);
  process.exit(1);
});
