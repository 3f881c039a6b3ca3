// cudalint for VS Code: starts `cudalint lsp` (stdio) through vscode-languageclient. Diagnostics,
// quick fixes, "fix all" and hovers come from the server; this file only starts it, passes the
// settings and restarts it when they change.
import * as os from "os";
import * as path from "path";
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";
import { discover } from "./discover";

let client: LanguageClient | undefined;
let output: vscode.OutputChannel | undefined;

// The files cudalint reads. Languages where VS Code (or a common extension) has an id, and
// file-name patterns for files that may have none (Dockerfile.*, requirements*.txt, ...).
const documentSelector = [
  { scheme: "file", language: "cuda-cpp" },
  { scheme: "file", language: "cpp" },
  { scheme: "file", language: "python" },
  { scheme: "file", language: "dockerfile" },
  { scheme: "file", language: "cmake" },
  { scheme: "file", language: "toml" },
  { scheme: "file", language: "pip-requirements" },
  {
    scheme: "file",
    pattern:
      "**/{Dockerfile,Dockerfile.*,*.dockerfile,*.Dockerfile,Containerfile,CMakeLists.txt,*.cmake," +
      "pyproject.toml,cudalint.toml,setup.py,requirements*.txt,compile_commands.json,*.cu,*.cuh}",
  },
];

function workspaceFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

// `${workspaceFolder}`, `${userHome}` and a leading `~`, as users write them in settings.
export function expand(value: string, folder: string | undefined): string {
  let v = value.trim();
  if (v === "~" || v.startsWith("~/")) v = path.join(os.homedir(), v.slice(1));
  v = v.replace(/\$\{userHome\}/g, os.homedir());
  if (folder) v = v.replace(/\$\{workspaceFolder\}/g, folder);
  return v;
}

interface Settings {
  command: string;  // the `cudalint.path` setting, expanded ("" or "cudalint": find it)
  args: string[];
  config: string;
}

function readSettings(): Settings {
  const cfg = vscode.workspace.getConfiguration("cudalint");
  const folder = workspaceFolder();
  const command = expand(cfg.get<string>("path", "") ?? "", folder);
  const args = (cfg.get<string[]>("args", []) ?? []).map((a) => expand(String(a), folder));
  let config = expand(cfg.get<string>("config", "") ?? "", folder);
  if (config && folder && !path.isAbsolute(config)) config = path.join(folder, config);
  return { command, args, config };
}

async function start(): Promise<void> {
  const s = readSettings();
  // The setting, else PATH, else the cudalint wheel's install (src/discover.ts).
  const found = await discover(s.command, { folder: workspaceFolder() });
  const command = found?.command ?? "cudalint";
  output?.appendLine(
    found
      ? `cudalint: ${command} (from ${found.source})`
      : "cudalint: not found in cudalint.path, on PATH or in a pip-installed cudalint wheel; trying `cudalint`",
  );
  const serverOptions: ServerOptions = {
    command,
    args: ["lsp", ...s.args],
    transport: TransportKind.stdio,
    options: { cwd: workspaceFolder() },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector,
    // Read by the server at `initialize`; it asks for the `cudalint` section again
    // (workspace/configuration) when it is told that the configuration changed.
    initializationOptions: { cudalint: { config: s.config } },
    middleware: {
      workspace: {
        // The server's workspace/configuration requests get the same expanded config path.
        configuration: async (params, token, next) => {
          const result = await next(params, token);
          if (!Array.isArray(result)) return result;
          return result.map((r, i) =>
            params.items[i]?.section === "cudalint" && r && typeof r === "object"
              ? { ...r, config: readSettings().config }
              : r,
          );
        },
      },
    },
    outputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
  };
  client = new LanguageClient("cudalint", "cudalint", serverOptions, clientOptions);
  try {
    await client.start();
  } catch (err) {
    client = undefined;
    const choice = await vscode.window.showErrorMessage(
      `cudalint: could not start \`${command} lsp\`: ${err instanceof Error ? err.message : String(err)}. ` +
        "Install cudalint (`pip install cudalint-<version>-*.whl`, or the release binary on PATH) " +
        "or set `cudalint.path` to the cudalint executable.",
      "Open Settings",
    );
    if (choice === "Open Settings") {
      await vscode.commands.executeCommand("workbench.action.openSettings", "cudalint.path");
    }
  }
}

async function stop(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) await c.stop();
}

async function restart(): Promise<void> {
  await stop();
  await start();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("cudalint");
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand("cudalint.restart", restart),
    vscode.commands.registerCommand("cudalint.showOutput", () => output?.show()),
    // Path and arguments are fixed when the process starts, and a new config file is simplest
    // to honour the same way: restart on any change of these settings.
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (["cudalint.path", "cudalint.args", "cudalint.config"].some((k) => e.affectsConfiguration(k))) {
        await restart();
      }
    }),
  );
  await start();
}

export function deactivate(): Thenable<void> | undefined {
  return stop();
}
