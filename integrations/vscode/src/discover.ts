// Finding the cudalint executable, without VS Code (so it is testable with plain node):
//   1. the `cudalint.path` setting, when it names something other than the default `cudalint`
//      (a path is used as it is; a bare name is looked up on PATH);
//   2. `cudalint` on PATH;
//   3. the cudalint wheel's install: `python3 -c "import cudalint; print(cudalint.find_cudalint_bin())"`
//      (the wheel's package, scripts/build-wheel.py), with the workspace's .venv/venv python first,
//      then python3 and python on PATH;
//   4. the directories pip puts scripts in: the workspace's .venv/bin and venv/bin, ~/.local/bin
//      (pip install --user, pipx).
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

export interface Found {
  command: string;
  // Where it came from: "setting", "PATH", "python wheel (<python>)", "pip scripts directory".
  source: string;
}

export interface DiscoverOptions {
  folder?: string;                            // the workspace folder
  env?: NodeJS.ProcessEnv;                    // default: process.env
  home?: string;                              // default: os.homedir()
  timeoutMs?: number;                         // for each python run (default 5000)
}

const isWindows = process.platform === "win32";

function executable(file: string): boolean {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return false;
    if (isWindows) return true;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// The first executable `name` in PATH's directories, or undefined.
export function which(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const exts = isWindows ? (env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";").concat([""]) : [""];
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      if (executable(candidate)) return candidate;
    }
  }
  return undefined;
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(file, args, { env, timeout: timeoutMs, windowsHide: true }, (err, stdout) =>
      resolve(err ? undefined : String(stdout).trim()),
    );
  });
}

const FIND_BIN = "import cudalint, sys; sys.stdout.write(cudalint.find_cudalint_bin())";

export async function discover(setting: string, opts: DiscoverOptions = {}): Promise<Found | undefined> {
  const env = opts.env ?? process.env;
  const home = opts.home ?? os.homedir();
  const timeoutMs = opts.timeoutMs ?? 5000;
  const s = setting.trim();
  if (s && s !== "cudalint") {
    if (s.includes("/") || s.includes(path.sep)) {
      const abs = path.isAbsolute(s) || !opts.folder ? s : path.join(opts.folder, s);
      return { command: abs, source: "setting" };
    }
    return { command: which(s, env) ?? s, source: "setting" };
  }
  const onPath = which("cudalint", env);
  if (onPath) return { command: onPath, source: "PATH" };

  const venvs = opts.folder ? [".venv", "venv"].map((v) => path.join(opts.folder as string, v)) : [];
  const bin = isWindows ? "Scripts" : "bin";
  const pythons: string[] = [];
  for (const v of venvs) {
    const py = path.join(v, bin, isWindows ? "python.exe" : "python");
    if (executable(py)) pythons.push(py);
  }
  for (const name of ["python3", "python"]) {
    const py = which(name, env);
    if (py && !pythons.includes(py)) pythons.push(py);
  }
  for (const py of pythons) {
    const out = await run(py, ["-c", FIND_BIN], env, timeoutMs);
    if (out && executable(out)) return { command: out, source: `python wheel (${py})` };
  }

  const exe = isWindows ? "cudalint.exe" : "cudalint";
  for (const dir of [...venvs.map((v) => path.join(v, bin)), path.join(home, ".local", "bin")]) {
    const candidate = path.join(dir, exe);
    if (executable(candidate)) return { command: candidate, source: "pip scripts directory" };
  }
  return undefined;
}
