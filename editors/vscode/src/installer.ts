// The server this extension carries: the .vsix holds the akgen-lsp wheel (server/akgen_lsp-*.whl, built by
// `npm run package`), installed on first use into a virtual environment in the extension's global storage (as
// Microsoft's Python tool extensions bundle their servers), and again when the extension brings a newer wheel.
// Pure helpers here (which wheel, which Python, the steps); extension.ts runs them under a progress notification.

import * as path from "node:path";

import { binDir } from "./discovery";

export interface Step {
  /** What the progress notification says while it runs. */
  title: string;
  command: string;
  args: string[];
  /** Run in order when this step fails, in its place (the step's failure is then only logged). */
  fallback?: { command: string; args: string[] }[];
  /** A failure is logged and the next step runs. */
  optional?: boolean;
}

/** The newest akgen-lsp wheel among `files` (names in the extension's server/ folder); undefined when none. */
export function pickWheel(files: string[]): string | undefined {
  const wheels = files.filter((f) => /^akgen_lsp-[^-]+-.*\.whl$/.test(path.basename(f)));
  const version = (f: string) => path.basename(f).split("-")[1].split(".").map((n) => parseInt(n, 10) || 0);
  wheels.sort((a, b) => {
    const va = version(a);
    const vb = version(b);
    for (let i = 0; i < Math.max(va.length, vb.length); i++) {
      if ((va[i] ?? 0) !== (vb[i] ?? 0)) {
        return (vb[i] ?? 0) - (va[i] ?? 0);
      }
    }
    return 0;
  });
  return wheels[0];
}

/** The Pythons to try for the environment, best first: the Python extension's interpreter (unless it lies in an
 * untrusted workspace), then python3 / python on the PATH (absolute entries). */
export function pythonCandidates(pathEnv: string, platform: string, interpreter?: string): string[] {
  const out: string[] = [];
  if (interpreter) {
    out.push(interpreter);
  }
  const sep = platform === "win32" ? ";" : ":";
  const names = platform === "win32" ? ["python.exe", "python3.exe"] : ["python3", "python"];
  for (const dir of pathEnv.split(sep).filter((d) => path.isAbsolute(d))) {
    for (const name of names) {
      const file = path.join(dir, name);
      if (!out.includes(file)) {
        out.push(file);
      }
    }
  }
  return out;
}

/** The arguments that make a Python say whether it can run akgen (3.10 or newer, with venv and pip). */
export const PYTHON_PROBE = [
  "-c",
  "import sys, venv, ensurepip; sys.exit(0 if sys.version_info >= (3, 10) else 3)",
];

/** The steps that make (or refresh) the environment `envDir` with `wheel`, using `python`. */
export function installSteps(python: string, envDir: string, wheel: string, platform: string, fresh: boolean): Step[] {
  const envPython = path.join(envDir, binDir(platform), platform === "win32" ? "python.exe" : "python");
  const version = path.basename(wheel).split("-")[1];
  const steps: Step[] = [];
  const pip = ["-m", "pip", "install", "--disable-pip-version-check", "--no-input"];
  if (!fresh) {
    // the same version rebuilt, or a newer one: the wheel itself replaces what is there
    steps.push({ title: `replacing the server with akgen-lsp ${version}`, command: envPython, args: [...pip, "--force-reinstall", "--no-deps", wheel] });
    steps.push({ title: `installing the packages akgen-lsp ${version} needs`, command: envPython, args: [...pip, wheel] });
    return steps;
  }
  // A venv without pip (ensurepip alone took 17-37 s under load); the Python's own pip (22.3 or newer: --python) puts
  // uv in it, and uv installs the wheel, its ~50 packages and pip in parallel. When uv cannot be had or fails (uv reads
  // no pip configuration: a mirror set only for pip), ensurepip then pip install them as before.
  steps.push({ title: "creating its Python environment", command: python, args: ["-m", "venv", "--clear", "--without-pip", envDir] });
  const uv = path.join(envDir, binDir(platform), platform === "win32" ? "uv.exe" : "uv");
  steps.push({ title: "getting uv, a faster installer", command: python, args: ["-m", "pip", "--python", envPython, "install", "--disable-pip-version-check", "--no-input", "--quiet", "uv"], optional: true });
  steps.push({
    title: `installing akgen-lsp ${version} and the packages it needs (about 60 MB: numpy, pygls, tree-sitter, ...)`,
    command: uv,
    args: ["pip", "install", "--python", envPython, wheel, "pip"],
    fallback: [{ command: envPython, args: ["-m", "ensurepip"] }, { command: envPython, args: [...pip, wheel] }],
  });
  return steps;
}

/** The marker in the environment that records which wheel it holds (a newer .vsix reinstalls). */
export function markerFile(envDir: string): string {
  return path.join(envDir, "akgen-wheel.txt");
}
