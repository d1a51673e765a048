// The `akgen mcp` command line of the server the extension found (pure: `npm test` checks it). The extension found
// `<akgen> serve` (or the user's akgen.server.command); the MCP server is the same program with `mcp`.

import * as path from "node:path";

import type { ServerCommand } from "./discovery";

export interface McpCommand {
  command: string;
  args: string[];
}

/** `akgen ... serve [flags]` -> `akgen ... mcp`; `akgen-lsp` (the language server's own entry point) -> the
 * `akgen` beside it with `mcp`; undefined when the command says nothing of akgen (a wrapper script). */
export function mcpCommand(cmd: ServerCommand): McpCommand | undefined {
  const serve = cmd.args.lastIndexOf("serve");
  if (serve >= 0) {
    return { command: cmd.command, args: [...cmd.args.slice(0, serve), "mcp"] };
  }
  const base = path.basename(cmd.command);
  if (base === "akgen-lsp" || base === "akgen-lsp.exe") {
    const exe = base.endsWith(".exe") ? "akgen.exe" : "akgen";
    const dir = path.dirname(cmd.command);
    return { command: dir === "." && !cmd.command.includes(path.sep) ? exe : path.join(dir, exe), args: ["mcp"] };
  }
  return undefined;
}
