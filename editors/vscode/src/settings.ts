// Pure helpers (no `vscode` import): what the extension sends to the server and how it starts it.
// Kept apart from extension.ts so that `npm test` can check them with node's test runner.

/** Sections of the `akgen` configuration that only the client reads. */
export const CLIENT_ONLY_SECTIONS = ["server", "trace"];

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function toJson(value: unknown): Json | undefined {
  if (value === null) {
    return null;
  }
  switch (typeof value) {
    case "boolean":
    case "number":
    case "string":
      return value;
    case "object": {
      if (Array.isArray(value)) {
        return value.map((v) => toJson(v)).filter((v): v is Json => v !== undefined);
      }
      const out: { [key: string]: Json } = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        const json = toJson(v);
        if (json !== undefined) {
          out[k] = json;
        }
      }
      return out;
    }
    default:
      return undefined;
  }
}

/** What `WorkspaceConfiguration.inspect(key)` tells about one key (the parts this module reads). */
export interface Inspected {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * The settings the user really set (user, workspace or folder settings; the most specific wins), as a nested object
 * keyed like `akgen.toml`. Defaults declared in package.json are NOT sent: they would override the project's
 * `akgen.toml`, which the server reads below the editor's settings.
 */
export function explicitSettings(
  keys: string[],
  inspect: (key: string) => Inspected | undefined,
): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const key of keys) {
    if (CLIENT_ONLY_SECTIONS.includes(key.split(".")[0])) {
      continue;
    }
    const info = inspect(key);
    if (!info) {
      continue;
    }
    const value = [info.workspaceFolderValue, info.workspaceValue, info.globalValue].find((v) => v !== undefined);
    const json = toJson(value);
    if (json === undefined) {
      continue;
    }
    const parts = key.split(".");
    let node = out;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      if (typeof next !== "object" || next === null || Array.isArray(next)) {
        node[part] = {};
      }
      node = node[part] as { [key: string]: Json };
    }
    node[parts[parts.length - 1]] = json;
  }
  return out;
}

export interface ServerCommand {
  command: string;
  args: string[];
}

/**
 * The command line that starts the server: `akgen.server.command` (an array, or a string split on spaces),
 * with `serve` appended when the command is the `akgen` CLI itself and no sub-command was given.
 */
export function serverCommand(setting: unknown): ServerCommand {
  let parts: string[];
  if (Array.isArray(setting)) {
    parts = setting.filter((p): p is string => typeof p === "string" && p.length > 0);
  } else if (typeof setting === "string" && setting.trim()) {
    parts = setting.trim().split(/\s+/);
  } else {
    parts = [];
  }
  if (parts.length === 0) {
    parts = ["akgen", "serve"];
  }
  const [command, ...args] = parts;
  const base = command.split(/[\\/]/).pop() ?? command;
  if ((base === "akgen" || base === "akgen.exe") && args.length === 0) {
    args.push("serve");
  }
  return { command, args };
}

/** A one-sentence message for a server that could not start, saying what to do next. */
export function startFailureMessage(cmd: ServerCommand, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  return (
    `akgen: the language server did not start (${[cmd.command, ...cmd.args].join(" ")}: ${reason}). ` +
    "Install akgen-lsp (pip install akgen-lsp) or set akgen.server.command to its full path."
  );
}
