// The akgen extension: starts `akgen serve` over stdio and connects VS Code's language client to it.
// Diagnostics, quick fixes, hover, completion, signature help and inline completions all come from the server.

import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  TransportKind,
} from "vscode-languageclient/node";

import { serverCommand, serverSettings, startFailureMessage } from "./settings";

let client: LanguageClient | undefined;

const DOCUMENTS = [
  { scheme: "file", language: "cpp" },
  { scheme: "file", language: "ascendc" },
  { scheme: "untitled", language: "ascendc" },
];

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel("akgen", { log: true });
  context.subscriptions.push(output);

  context.subscriptions.push(
    vscode.commands.registerCommand("akgen.restartServer", async () => {
      await stop();
      await start(context, output);
    }),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("akgen.server.command")) {
        await stop();
        await start(context, output);
      }
    }),
  );
  await start(context, output);
}

async function start(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): Promise<void> {
  const config = vscode.workspace.getConfiguration("akgen");
  const cmd = serverCommand(config.get("server.command"));
  const serverOptions: ServerOptions = {
    run: { command: cmd.command, args: cmd.args, transport: TransportKind.stdio },
    debug: { command: cmd.command, args: cmd.args, transport: TransportKind.stdio },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENTS,
    outputChannel: output,
    initializationOptions: serverSettings(JSON.parse(JSON.stringify(config))),
    synchronize: {
      // sends workspace/didChangeConfiguration with the whole `akgen` section on every change
      configurationSection: "akgen",
      fileEvents: vscode.workspace.createFileSystemWatcher("**/akgen.toml"),
    },
  };
  client = new LanguageClient("akgen", "akgen language server", serverOptions, clientOptions);
  client.onDidChangeState((event) => {
    if (event.newState === State.Stopped) {
      output.info("akgen language server stopped");
    }
  });
  try {
    await client.start();
  } catch (error) {
    const message = startFailureMessage(cmd, error);
    output.error(message);
    void vscode.window.showErrorMessage(message, "Open settings").then((choice) => {
      if (choice) {
        void vscode.commands.executeCommand("workbench.action.openSettings", "akgen.server.command");
      }
    });
    client = undefined;
  }
  context.subscriptions.push({ dispose: () => void stop() });
}

async function stop(): Promise<void> {
  const current = client;
  client = undefined;
  if (current) {
    await current.stop();
  }
}

export async function deactivate(): Promise<void> {
  await stop();
}
