// Pure helpers (no `vscode` import): what the extension sends to the server. Kept apart from extension.ts so that
// `npm test` can check them with node's test runner.

/** Sections of the `akgen` configuration that only the client reads. */
export const CLIENT_ONLY_SECTIONS = ["server", "trace"];

/**
 * VS Code setting (after `akgen.`) -> the server's key (akgen.toml's spelling), where they differ. VS Code titles a
 * setting from its key ("checkOnSave" -> "Check On Save"), so the editor's keys are camelCase words; every other
 * key is the same on both sides.
 */
export const SERVER_KEYS: Record<string, string> = {
  checkOnSave: "check_on_save",
  "check.aheadDelay": "check.ahead_ms",
  "lint.delay": "lint.debounce_ms",
  "lint.extendSelect": "lint.extend_select",
  "toolchain.timeout": "toolchain.timeout_s",
};

export function serverKey(key: string): string {
  return SERVER_KEYS[key] ?? key;
}

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
    const parts = serverKey(key).split(".");
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
