// Finding the server without a setting (pure: the file system and the environment are passed in, so `npm test`
// checks the order). The first candidate that exists wins:
//   1. `akgen.server.command`, when set (then only it: the user chose);
//   2. `.venv/bin/akgen` (or `venv/`) in each workspace folder and the folders above it (a checkout's samples/);
//   3. `akgen` beside the interpreter selected in the Python extension;
//   4. `akgen` on the PATH.

import * as path from "node:path";

export interface ServerCommand {
  command: string;
  args: string[];
  /** Where it was found, said in the log and the status tooltip. */
  origin: string;
}

export interface DiscoveryInput {
  setting: unknown;
  workspaceFolders: string[];
  pythonInterpreter?: string;
  pathEnv: string;
  platform: string;
}

function executableName(platform: string): string {
  return platform === "win32" ? "akgen.exe" : "akgen";
}

function binDir(platform: string): string {
  return platform === "win32" ? "Scripts" : "bin";
}

/** `akgen.server.command` as a command line (an array, or a string split on spaces); undefined when unset. */
export function commandFromSetting(setting: unknown): ServerCommand | undefined {
  let parts: string[] = [];
  if (Array.isArray(setting)) {
    parts = setting.filter((p): p is string => typeof p === "string" && p.length > 0);
  } else if (typeof setting === "string" && setting.trim()) {
    parts = setting.trim().split(/\s+/);
  }
  if (parts.length === 0) {
    return undefined;
  }
  const [command, ...args] = parts;
  const base = command.split(/[\\/]/).pop() ?? command;
  if ((base === "akgen" || base === "akgen.exe") && args.length === 0) {
    args.push("serve");
  }
  return { command, args, origin: "the setting akgen.server.command" };
}

/** Every place to look, best first (the setting alone when it is set). */
export function candidates(input: DiscoveryInput): ServerCommand[] {
  const fromSetting = commandFromSetting(input.setting);
  if (fromSetting) {
    return [fromSetting];
  }
  const exe = executableName(input.platform);
  const bin = binDir(input.platform);
  const out: ServerCommand[] = [];
  const seen = new Set<string>();
  const add = (command: string, origin: string) => {
    if (!seen.has(command)) {
      seen.add(command);
      out.push({ command, args: ["serve"], origin });
    }
  };
  for (const folder of input.workspaceFolders) {
    let dir = path.resolve(folder);
    for (;;) {
      for (const venv of [".venv", "venv"]) {
        add(path.join(dir, venv, bin, exe), `${venv} in ${dir}`);
      }
      const parent = path.dirname(dir);
      if (parent === dir) {
        break;
      }
      dir = parent;
    }
  }
  if (input.pythonInterpreter) {
    add(path.join(path.dirname(input.pythonInterpreter), exe), `the Python extension's interpreter (${input.pythonInterpreter})`);
  }
  const sep = input.platform === "win32" ? ";" : ":";
  for (const dir of input.pathEnv.split(sep).filter((d) => d.length > 0)) {
    add(path.join(dir, exe), "the PATH");
  }
  return out;
}

/** The first candidate whose program exists (a bare command name from the setting is left to the PATH). */
export function discover(input: DiscoveryInput, exists: (file: string) => boolean): ServerCommand | undefined {
  for (const candidate of candidates(input)) {
    if (!path.isAbsolute(candidate.command) && candidate.origin.startsWith("the setting")) {
      return candidate;
    }
    if (exists(candidate.command)) {
      return candidate;
    }
  }
  return undefined;
}

/** What to say when no server was found: where we looked, and what to do next. */
export function notFoundMessage(input: DiscoveryInput): string {
  if (commandFromSetting(input.setting)) {
    const cmd = commandFromSetting(input.setting)!;
    return `akgen: the server command ${cmd.command} (akgen.server.command) does not exist. Fix the setting, or clear it to let the extension find the server.`;
  }
  const places = [
    input.workspaceFolders.length ? ".venv/bin/akgen in the workspace folder and the folders above it" : undefined,
    input.pythonInterpreter ? "beside the Python extension's interpreter" : undefined,
    "akgen on the PATH",
  ].filter((p): p is string => p !== undefined);
  return `akgen: the language server was not found (looked for ${places.join(", ")}). Install it with \`pip install akgen-lsp\` (or \`bash scripts/setup.sh\` in a checkout), or set akgen.server.command.`;
}

/** A one-sentence message for a server that could not start, saying what to do next. */
export function startFailureMessage(cmd: ServerCommand, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  return (
    `akgen: the language server did not start (${[cmd.command, ...cmd.args].join(" ")}, from ${cmd.origin}: ${reason}). ` +
    "See the server log; reinstall akgen-lsp or set akgen.server.command to a working `akgen serve`."
  );
}
