// The akgen extension: starts `akgen serve` over stdio and connects VS Code's language client to it.
// Diagnostics, quick fixes, hover, completion, signature help and inline completions all come from the server.

import * as vscode from "vscode";
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  TransportKind,
} from "vscode-languageclient/node";

import { explicitSettings, serverCommand, startFailureMessage } from "./settings";

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
      } else if (event.affectsConfiguration("akgen") && client) {
        await client.sendNotification(DidChangeConfigurationNotification.type, { settings: userSettings(context) });
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
    // only the settings the user set: package.json defaults must not override the project's akgen.toml
    initializationOptions: userSettings(context),
    synchronize: {
      // configuration changes are sent by the onDidChangeConfiguration handler above (user-set values only)
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

/** The `akgen.*` settings the user set explicitly, keyed like akgen.toml. */
function userSettings(context: vscode.ExtensionContext): Record<string, unknown> {
  const config = vscode.workspace.getConfiguration("akgen");
  const properties = context.extension.packageJSON?.contributes?.configuration?.properties ?? {};
  const keys = Object.keys(properties).map((k) => k.replace(/^akgen\./, ""));
  return explicitSettings(keys, (key) => config.inspect(key));
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
