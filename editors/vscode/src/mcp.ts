// The akgen MCP server, registered with VS Code's MCP server definition provider API (VS Code 1.101 and later:
// Copilot's agent mode and other MCP-aware extensions then use akgen's tools with no setup). Older versions have no
// such API: nothing is registered and the log says so. The command is the one the extension found for the language
// server, with `mcp` in place of `serve` (mcpCommand.ts).

import * as vscode from "vscode";

import type { ServerCommand } from "./discovery";
import { mcpCommand } from "./mcpCommand";

export const PROVIDER_ID = "akgen.mcp";

// The parts of the API this file uses (the extension builds against an older @types/vscode).
interface McpApi {
  registerMcpServerDefinitionProvider(id: string, provider: {
    onDidChangeMcpServerDefinitions?: vscode.Event<void>;
    provideMcpServerDefinitions(token: vscode.CancellationToken): Promise<unknown[]>;
  }): vscode.Disposable;
}
type StdioDefinition = new (label: string, command: string, args: string[], env?: Record<string, string>,
  version?: string) => unknown;

export function registerMcpServer(context: vscode.ExtensionContext, output: vscode.LogOutputChannel,
  found: () => Promise<ServerCommand | undefined>): void {
  const lm = (vscode as unknown as { lm?: Partial<McpApi> }).lm;
  const Definition = (vscode as unknown as { McpStdioServerDefinition?: StdioDefinition }).McpStdioServerDefinition;
  if (!lm?.registerMcpServerDefinitionProvider || !Definition) {
    output.info(`akgen: this VS Code (${vscode.version}) has no MCP server definition API (1.101 and later); ` +
      "add `akgen mcp` to .vscode/mcp.json by hand (docs/agents.md)");
    return;
  }
  const changed = new vscode.EventEmitter<void>();
  let registration: vscode.Disposable;
  try {
    registration = lm.registerMcpServerDefinitionProvider(PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      async provideMcpServerDefinitions() {
        const cmd = await found();
        const mcp = cmd ? mcpCommand(cmd) : undefined;
        if (!mcp) {
          output.info("akgen: no MCP server to register (the language server was not found, or its command is " +
            "not akgen's)");
          return [];
        }
        output.info(`akgen: MCP server ${[mcp.command, ...mcp.args].join(" ")}`);
        return [new Definition("akgen", mcp.command, mcp.args, {}, context.extension.packageJSON.version)];
      },
    });
  } catch (err) {
    // VS Code 1.100 (code-server 4.100) has a proposed form of this API that wants another package.json
    // contribution and throws: the language server must start all the same
    changed.dispose();
    output.info(`akgen: this VS Code (${vscode.version}) refused the MCP server definition (${String(err)}); ` +
      "add `akgen mcp` to .vscode/mcp.json by hand (docs/agents.md)");
    return;
  }
  context.subscriptions.push(changed, registration);
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration("akgen.server.command")) {
      changed.fire();
    }
  }));
}
