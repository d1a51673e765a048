// The akgen extension: finds and starts `akgen serve` over stdio, connects VS Code's language client to it, and adds
// a status bar item and commands. Diagnostics, quick fixes, hover, completion, signature help, inline completions
// and the check on save all come from the server.

import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import {
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  StaticFeature,
  TransportKind,
} from "vscode-languageclient/node";

import { discover, DiscoveryInput, inWorkspace, MANAGED_ORIGIN, notFoundMessage, ServerCommand, startFailureMessage } from "./discovery";
import { installSteps, markerFile, pickWheel, PYTHON_PROBE, pythonCandidates } from "./installer";
import { registerMcpServer } from "./mcp";
import { explicitSettings } from "./settings";
import { estimateLenses } from "./lens";
import { Checks, Status, view } from "./status";

const DOCUMENTS = [
  { scheme: "file", language: "cpp" },
  { scheme: "file", language: "c" },
  { scheme: "file", language: "ascendc" },
  { scheme: "untitled", language: "ascendc" },
];

interface Answer {
  ok?: boolean;
  message?: string;
  trace?: string | null;
  state?: string;
  written?: boolean;
  cancelled?: boolean;
  cases?: { case_id?: number; status?: string; max_abs?: number | null }[];
}

/** Asks the server for `akgen/status` notifications (capabilities.experimental.akgenStatus). */
class StatusFeature implements StaticFeature {
  fillClientCapabilities(capabilities: { experimental?: object }): void {
    capabilities.experimental = { ...(capabilities.experimental ?? {}), akgenStatus: true };
  }
  getState(): { kind: "static" } {
    return { kind: "static" };
  }
  initialize(): void {}
  clear(): void {}
}

class Extension {
  client: LanguageClient | undefined;
  status: Status = { client: "starting" };
  /** Every document's last check: the item shows the active editor's. */
  readonly checks = new Checks();
  readonly item: vscode.StatusBarItem;

  constructor(
    readonly context: vscode.ExtensionContext,
    readonly output: vscode.LogOutputChannel,
  ) {
    this.item = vscode.window.createStatusBarItem("akgen.status", vscode.StatusBarAlignment.Left, 10);
    this.item.name = "akgen";
    this.item.command = "akgen.menu";
    context.subscriptions.push(this.item);
    this.render();
    this.item.show();
  }

  /** The active editor's document as the server names it (its URI in the protocol's form). */
  activeUri(): string | undefined {
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc) {
      return undefined;
    }
    return this.client ? this.client.code2ProtocolConverter.asUri(doc.uri) : doc.uri.toString();
  }

  render(): void {
    this.status = { ...this.status, check: this.checks.shown(this.activeUri()) };
    const v = view(this.status);
    this.item.text = v.text;
    this.item.tooltip = v.tooltip;
    this.item.backgroundColor = v.warning ? new vscode.ThemeColor("statusBarItem.warningBackground") : undefined;
  }

  async discoveryInput(): Promise<DiscoveryInput> {
    const config = vscode.workspace.getConfiguration("akgen");
    return {
      setting: config.get("server.command"),
      workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
      pythonInterpreter: await pythonInterpreter(),
      managedEnv: this.managedEnv(),
      trusted: vscode.workspace.isTrusted,
      pathEnv: process.env.PATH ?? "",
      platform: process.platform,
    };
  }

  /** The environment this extension manages: where the server it carries is installed. */
  managedEnv(): string {
    return path.join(this.context.globalStorageUri.fsPath, "server-env");
  }

  /** The wheel this extension carries (server/ in the .vsix), if any. */
  bundledWheel(): string | undefined {
    const dir = path.join(this.context.extensionPath, "server");
    try {
      const wheel = pickWheel(fs.readdirSync(dir));
      return wheel ? path.join(dir, wheel) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Whether the managed environment holds another wheel than the one carried now (an updated extension). */
  managedIsStale(): boolean {
    const wheel = this.bundledWheel();
    if (!wheel) {
      return false;
    }
    try {
      return fs.readFileSync(markerFile(this.managedEnv()), "utf-8").trim() !== fileStamp(wheel);
    } catch {
      return true;
    }
  }

  /** Install the carried wheel into the managed environment, with a progress notification; the reason it could
   * not, or undefined when it did. */
  async installServer(input: DiscoveryInput, force = false): Promise<string | undefined> {
    const wheel = this.bundledWheel();
    if (!wheel) {
      return "this build of the extension carries no server wheel";
    }
    const envDir = this.managedEnv();
    const interpreter = input.pythonInterpreter && (input.trusted !== false || !inWorkspace(input.pythonInterpreter, input.workspaceFolders))
      ? input.pythonInterpreter : undefined;
    const python = await firstPython(pythonCandidates(input.pathEnv, input.platform, interpreter));
    if (!python) {
      return "no Python 3.10 or newer with venv was found on the PATH (Debian/Ubuntu: `sudo apt-get install python3 python3-venv`)";
    }
    const fresh = force || !isExecutable(path.join(envDir, process.platform === "win32" ? "Scripts/python.exe" : "bin/python"));
    const steps = installSteps(python, envDir, wheel, process.platform, fresh);
    this.output.info(`akgen: installing the server this extension carries (${path.basename(wheel)}) into ${envDir} with ${python}`);
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: "akgen: installing the language server", cancellable: false },
      async (progress) => {
        for (const step of steps) {
          progress.report({ message: step.title });
          this.output.info(`akgen: ${[step.command, ...step.args].join(" ")}`);
          let problem = await run(step.command, step.args, (line) => this.output.info(line));
          if (problem && step.fallback) {
            this.output.info(`akgen: ${problem}; instead, with pip:`);
            problem = undefined;
            for (const instead of step.fallback) {
              this.output.info(`akgen: ${[instead.command, ...instead.args].join(" ")}`);
              problem = await run(instead.command, instead.args, (line) => this.output.info(line));
              if (problem) {
                break;
              }
            }
          }
          if (problem && step.optional) {
            this.output.info(`akgen: ${step.title}: ${problem} (not needed: going on)`);
          } else if (problem) {
            return `${step.title}: ${problem} (the server log has pip's output)`;
          }
        }
        fs.mkdirSync(envDir, { recursive: true });
        fs.writeFileSync(markerFile(envDir), fileStamp(wheel));
        this.output.info(`akgen: the server is installed in ${envDir}`);
        return undefined;
      },
    );
  }

  async findOrInstall(input: DiscoveryInput, force = false): Promise<{ cmd?: ServerCommand; problem?: string }> {
    const cmd = force ? undefined : discover(input, (file) => isExecutable(file));
    if (cmd && !(cmd.origin === MANAGED_ORIGIN && this.managedIsStale())) {
      return { cmd };
    }
    if (input.setting && (Array.isArray(input.setting) ? input.setting.length : String(input.setting).trim())) {
      return {}; // the user named the server: never install over their choice
    }
    const problem = await this.installServer(input, force);
    if (problem) {
      return { cmd, problem };
    }
    return { cmd: discover(input, (file) => isExecutable(file)) };
  }

  async start(force = false): Promise<void> {
    const input = await this.discoveryInput();
    const { cmd, problem } = await this.findOrInstall(input, force);
    if (!cmd) {
      const message = notFoundMessage(input, problem);
      this.output.error(message);
      this.status = { client: "not found" };
      this.render();
      void this.offerHelp(message);
      return;
    }
    this.output.info(`akgen: starting ${[cmd.command, ...cmd.args].join(" ")} (found in ${cmd.origin})`);
    this.status = { client: "starting", origin: cmd.origin };
    this.render();
    const serverOptions: ServerOptions = {
      run: { command: cmd.command, args: cmd.args, transport: TransportKind.stdio },
      debug: { command: cmd.command, args: cmd.args, transport: TransportKind.stdio },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: DOCUMENTS,
      outputChannel: this.output,
      // only the settings the user set: package.json defaults must not override the project's akgen.toml; and
      // VS Code's Workspace Trust (Restricted Mode: false), which decides what the workspace may set and run
      initializationOptions: { ...this.userSettings(), workspaceTrust: vscode.workspace.isTrusted, trusted: vscode.workspace.isTrusted },
      synchronize: {
        // configuration changes are sent by the onDidChangeConfiguration handler (user-set values only)
        fileEvents: vscode.workspace.createFileSystemWatcher("**/akgen.toml"),
      },
    };
    const client = new LanguageClient("akgen", "akgen language server", serverOptions, clientOptions);
    client.registerFeature(new StatusFeature());
    client.onDidChangeState((event) => {
      if (event.newState === State.Running) {
        this.status = { ...this.status, client: "running" };
      } else if (event.newState === State.Stopped) {
        this.output.info("akgen language server stopped");
        this.status = { ...this.status, client: "stopped" };
      }
      this.render();
    });
    this.client = client;
    try {
      await client.start();
      client.onNotification("akgen/status", (params: Status) => {
        this.checks.record(params.check);
        this.status = { ...this.status, client: "running", server: params.server ?? this.status.server };
        this.render();
      });
    } catch (error) {
      const message = startFailureMessage(cmd, error);
      this.output.error(message);
      this.client = undefined;
      this.status = { client: "stopped", origin: cmd.origin };
      this.render();
      void this.offerHelp(message);
    }
  }

  async offerHelp(message: string): Promise<void> {
    const choice = await vscode.window.showErrorMessage(message, "Open settings", "Show log");
    if (choice === "Open settings") {
      await vscode.commands.executeCommand("workbench.action.openSettings", "akgen.server.command");
    } else if (choice === "Show log") {
      this.output.show(true);
    }
  }

  async stop(): Promise<void> {
    const current = this.client;
    this.client = undefined;
    if (current) {
      await current.stop();
    }
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** The `akgen.*` settings the user set explicitly, keyed like akgen.toml. */
  userSettings(): Record<string, unknown> {
    const config = vscode.workspace.getConfiguration("akgen");
    const sections = this.context.extension.packageJSON?.contributes?.configuration ?? [];
    const keys: string[] = [];
    for (const section of Array.isArray(sections) ? sections : [sections]) {
      keys.push(...Object.keys(section.properties ?? {}).map((k) => k.replace(/^akgen\./, "")));
    }
    return explicitSettings(keys, (key) => config.inspect(key));
  }

  async settingsChanged(event: vscode.ConfigurationChangeEvent): Promise<void> {
    if (event.affectsConfiguration("akgen.server.command")) {
      await this.restart();
    } else if (event.affectsConfiguration("akgen") && this.client) {
      await this.client.sendNotification(DidChangeConfigurationNotification.type, { settings: this.userSettings() });
    }
  }

  // ------------------------------------------------------------------------------------------ commands

  async ask(command: string, uri?: vscode.Uri): Promise<Answer | undefined> {
    if (!this.client) {
      void this.offerHelp("akgen: the language server is not running; see the server log.");
      return undefined;
    }
    const args = uri ? [this.client.code2ProtocolConverter.asUri(uri)] : [];
    return (await this.client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args })) as Answer | undefined;
  }

  async activeKernel(): Promise<vscode.TextDocument | undefined> {
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc) {
      void vscode.window.showWarningMessage("akgen: open the kernel you want to check first.");
      return undefined;
    }
    if (doc.isDirty) {
      await doc.save(); // the check reads the saved file
    }
    return doc;
  }

  async checkNow(command = "akgen.server.check"): Promise<void> {
    const doc = await this.activeKernel();
    if (!doc) {
      return;
    }
    const answer = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: "akgen: checking" },
      () => this.ask(command, doc.uri),
    );
    if (!answer) {
      return;
    }
    if (command === "akgen.server.runTask" && answer.cases) {
      this.output.info(answer.message ?? "");
    }
    const show = answer.ok === false || answer.state === "failed" ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const first = (answer.message ?? "").split("\n")[0];
    const choice = await show(first, ...(command === "akgen.server.runTask" ? ["Show details"] : []));
    if (choice === "Show details") {
      this.output.show(true);
    }
  }

  /** "Generate kernel for this task" / "Improve performance": the server runs the loop (its rounds in the status
   * bar's progress) and writes the kernel (workspace/applyEdit) only after it verified; here a notification with a
   * Cancel button (VS Code shows a server's progress in the status bar, which has none) asks the server to stop it
   * (akgen.server.cancelGenerate: the model and the checks stop, nothing is written), and then we show what the
   * server says. */
  async generate(command: "akgen.server.generateKernel" | "akgen.server.improvePerformance"): Promise<void> {
    const doc = await this.activeKernel();
    if (!doc) {
      return;
    }
    const what = command === "akgen.server.generateKernel" ? "Generate kernel" : "Improve performance";
    const name = doc.uri.path.split("/").pop();
    const answer = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `akgen: ${what} (${name})`, cancellable: true },
      (_progress, token) => {
        token.onCancellationRequested(() => void this.ask("akgen.server.cancelGenerate", doc.uri));
        return this.ask(command, doc.uri);
      },
    );
    if (!answer) {
      return;
    }
    if (answer.cancelled) {
      void vscode.window.showInformationMessage(answer.message ?? `akgen: ${what} was cancelled; nothing was written.`);
      return;
    }
    this.output.info(answer.message ?? "");
    const show = answer.written ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
    const choice = await show((answer.message ?? "").split(". round ")[0], "Show details");
    if (choice === "Show details") {
      this.output.show(true);
    }
  }

  async showTrace(): Promise<void> {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const answer = await this.ask("akgen.server.lastTrace", uri);
    if (!answer) {
      return;
    }
    if (!answer.ok || !answer.trace) {
      void vscode.window.showInformationMessage(answer.message ?? "akgen: no trace yet.");
      return;
    }
    const trace = answer.trace;
    const choice = await vscode.window.showInformationMessage(answer.message ?? trace, "Open Perfetto", "Open file", "Copy path");
    if (choice === "Open Perfetto") {
      await vscode.env.openExternal(vscode.Uri.parse("https://ui.perfetto.dev"));
    } else if (choice === "Open file") {
      await vscode.window.showTextDocument(vscode.Uri.file(trace), { preview: true });
    } else if (choice === "Copy path") {
      await vscode.env.clipboard.writeText(trace);
    }
  }

  async showInfo(): Promise<void> {
    const answer = await this.ask("akgen.server.info", vscode.window.activeTextEditor?.document.uri);
    if (answer?.message) {
      this.output.info(answer.message);
      this.output.show(true);
    }
  }

  async menu(): Promise<void> {
    const items: (vscode.QuickPickItem & { run: () => Thenable<unknown> | Promise<unknown> })[] = [
      { label: "$(play) Check this kernel now", run: () => this.checkNow() },
      { label: "$(beaker) Run this kernel's bench task", run: () => this.checkNow("akgen.server.runTask") },
      { label: "$(sparkle) Generate kernel for this task", run: () => this.generate("akgen.server.generateKernel") },
      { label: "$(rocket) Improve performance", run: () => this.generate("akgen.server.improvePerformance") },
      { label: "$(graph) Show the last run's Chrome trace", run: () => this.showTrace() },
      { label: "$(output) Show the server log", run: async () => this.output.show(true) },
      { label: "$(info) Show the environment", run: () => this.showInfo() },
      { label: "$(gear) Open the akgen settings", run: () => vscode.commands.executeCommand("workbench.action.openSettings", "@ext:akgen.akgen-lsp") },
      { label: "$(debug-restart) Restart the language server", run: () => this.restart() },
      { label: "$(cloud-download) Install the language server this extension carries", run: () => vscode.commands.executeCommand("akgen.installServer") },
    ];
    const picked = await vscode.window.showQuickPick(items, { title: view(this.status).tooltip.split("\n")[0], placeHolder: "akgen" });
    if (picked) {
      await picked.run();
    }
  }
}

/** Run a program; its output lines go to `log`; the reason it failed, or undefined. */
function run(command: string, args: string[], log: (line: string) => void): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = execFile(command, args, { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1" } },
      (error) => resolve(error ? (error.message.split("\n")[0] || String(error)) : undefined));
    const forward = (data: Buffer | string) => String(data).split("\n").filter((l) => l.trim()).forEach(log);
    child.stdout?.on("data", forward);
    child.stderr?.on("data", forward);
  });
}

/** The first Python that can make the environment (3.10 or newer, venv and pip). */
async function firstPython(candidates: string[]): Promise<string | undefined> {
  for (const python of candidates) {
    if (isExecutable(python) && (await run(python, PYTHON_PROBE, () => undefined)) === undefined) {
      return python;
    }
  }
  return undefined;
}

/** Which wheel the environment holds: its name, size and time (a rebuilt wheel of one version counts as new). */
function fileStamp(file: string): string {
  const st = fs.statSync(file);
  return `${path.basename(file)} ${st.size} ${Math.round(st.mtimeMs)}`;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The interpreter selected in the Python extension, if it is installed. */
async function pythonInterpreter(): Promise<string | undefined> {
  const python = vscode.extensions.getExtension("ms-python.python");
  if (!python) {
    return undefined;
  }
  try {
    const api = python.isActive ? python.exports : await python.activate();
    const env = api?.environments?.getActiveEnvironmentPath?.();
    return typeof env?.path === "string" ? env.path : undefined;
  } catch {
    return undefined;
  }
}

/** The estimate as a code lens on the kernel's entry line, from the server's AKGEN-ESTIMATE diagnostic. */
class EstimateLensProvider implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const diagnostics = vscode.languages.getDiagnostics(document.uri).map((d) => ({
      code: d.code as string | number | { value: string | number } | undefined,
      message: d.message,
      line: d.range.start.line,
    }));
    return estimateLenses(diagnostics).map((lens) => new vscode.CodeLens(
      new vscode.Range(lens.line, 0, lens.line, 0), { title: lens.title, command: "akgen.menu" }));
  }
}

let extension: Extension | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel("akgen", { log: true });
  context.subscriptions.push(output);
  const ext = new Extension(context, output);
  const lenses = new EstimateLensProvider();
  extension = ext;
  context.subscriptions.push(
    vscode.commands.registerCommand("akgen.restartServer", () => ext.restart()),
    vscode.commands.registerCommand("akgen.installServer", async () => {
      await ext.stop();
      await ext.start(true);
    }),
    // Restricted Mode ends: the server starts again with the trust that lets the workspace's settings apply
    vscode.workspace.onDidGrantWorkspaceTrust(() => ext.restart()),
    vscode.commands.registerCommand("akgen.checkNow", () => ext.checkNow()),
    vscode.commands.registerCommand("akgen.runTask", () => ext.checkNow("akgen.server.runTask")),
    vscode.commands.registerCommand("akgen.generateKernel", () => ext.generate("akgen.server.generateKernel")),
    vscode.commands.registerCommand("akgen.improvePerformance", () => ext.generate("akgen.server.improvePerformance")),
    vscode.commands.registerCommand("akgen.showTrace", () => ext.showTrace()),
    vscode.commands.registerCommand("akgen.showLog", () => output.show(true)),
    vscode.commands.registerCommand("akgen.showInfo", () => ext.showInfo()),
    vscode.commands.registerCommand("akgen.menu", () => ext.menu()),
    vscode.workspace.onDidChangeConfiguration((event) => ext.settingsChanged(event)),
    // the item shows the result of the kernel in front of the user
    vscode.window.onDidChangeActiveTextEditor(() => ext.render()),
    vscode.languages.registerCodeLensProvider(DOCUMENTS, lenses),
    vscode.languages.onDidChangeDiagnostics(() => lenses.refresh()),
    { dispose: () => void ext.stop() },
  );
  registerMcpServer(context, output, async () => discover(await ext.discoveryInput(), (file) => isExecutable(file)));
  await ext.start();
}

export async function deactivate(): Promise<void> {
  await extension?.stop();
}

