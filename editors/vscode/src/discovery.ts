// Finding the server without a setting (pure: the file system and the environment are passed in, so `npm test`
// checks the order). Only user-level places are looked at, never a program inside the opened folder or the folders
// above it (a repository could ship a `.venv/bin/akgen` of its own: opening a folder must not run it). The first
// candidate that exists wins:
//   1. `akgen.server.command`, when set (then only it: the user chose; in Restricted Mode VS Code reads it from the
//      user settings only, package.json's restrictedConfigurations);
//   2. `akgen` beside the interpreter the user selected in the Python extension (in Restricted Mode, not one inside
//      the workspace);
//   3. the environment this extension manages (its global storage), where it installs the server it carries;
//   4. `akgen` on the PATH (the user's environment: absolute entries, none inside the workspace).
// When none exists, the extension installs the wheel it carries into 3 (installer.ts).

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
  /** The extension's own environment (global storage), where it installs the server it carries. */
  managedEnv?: string;
  /** VS Code's Workspace Trust: false in Restricted Mode. */
  trusted?: boolean;
  pathEnv: string;
  platform: string;
}

export const MANAGED_ORIGIN = "the environment this extension manages";

function executableName(platform: string): string {
  return platform === "win32" ? "akgen.exe" : "akgen";
}

export function binDir(platform: string): string {
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

/** Whether `file` is inside one of the workspace folders (what the opened repository holds). */
export function inWorkspace(file: string, workspaceFolders: string[]): boolean {
  const f = path.resolve(file);
  return workspaceFolders.some((folder) => {
    const top = path.resolve(folder);
    return f === top || f.startsWith(top + path.sep);
  });
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
  const trusted = input.trusted !== false;
  if (input.pythonInterpreter && (trusted || !inWorkspace(input.pythonInterpreter, input.workspaceFolders))) {
    add(path.join(path.dirname(input.pythonInterpreter), exe), `the Python extension's interpreter (${input.pythonInterpreter})`);
  }
  if (input.managedEnv) {
    add(path.join(input.managedEnv, bin, exe), MANAGED_ORIGIN);
  }
  const sep = input.platform === "win32" ? ";" : ":";
  for (const dir of input.pathEnv.split(sep).filter((d) => d.length > 0)) {
    // a relative entry (".", "bin") names the opened folder: never a server from there
    if (path.isAbsolute(dir) && !inWorkspace(path.join(dir, exe), input.workspaceFolders)) {
      add(path.join(dir, exe), "the PATH");
    }
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

/** What to say when no server was found and none could be installed: where we looked, and what to do next. */
export function notFoundMessage(input: DiscoveryInput, installProblem?: string): string {
  if (commandFromSetting(input.setting)) {
    const cmd = commandFromSetting(input.setting)!;
    return `akgen: the server command ${cmd.command} (akgen.server.command) does not exist. Fix the setting, or clear it to let the extension find the server.`;
  }
  const places = [
    input.pythonInterpreter ? "beside the Python extension's interpreter" : undefined,
    input.managedEnv ? `in the extension's environment (${input.managedEnv})` : undefined,
    "akgen on the PATH",
  ].filter((p): p is string => p !== undefined);
  const why = installProblem ? ` Installing the server this extension carries failed: ${installProblem}.` : "";
  return (
    `akgen: the language server was not found (looked ${places.join(", ")}).${why} ` +
    "Run \"akgen: Install the language server\" to try again, or, in a checkout of akgen-lsp, `bash scripts/setup.sh` and set " +
    "akgen.server.command to its .venv/bin/akgen."
  );
}

/** A one-sentence message for a server that could not start, saying what to do next. */
export function startFailureMessage(cmd: ServerCommand, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  return (
    `akgen: the language server did not start (${[cmd.command, ...cmd.args].join(" ")}, from ${cmd.origin}: ${reason}). ` +
    "See the server log; run \"akgen: Install the language server\" to reinstall the one this extension carries, or set " +
    "akgen.server.command to a working `akgen serve`."
  );
}
