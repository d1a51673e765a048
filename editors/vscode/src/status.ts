// The status bar item's text and tooltip from the server's `akgen/status` notification (pure, tested by npm test).

export interface ServerStatus {
  state?: string;
  version?: string;
  toolchain?: string;
  model?: string;
  check_on_save?: string;
}

export interface CheckStatus {
  uri?: string;
  state?: string; // running, passed, failed, error, no task, cancelled
  message?: string;
  seconds?: number | null;
  trace?: string | null;
}

export interface Status {
  client?: "starting" | "running" | "stopped" | "not found";
  origin?: string;
  server?: ServerStatus;
  check?: CheckStatus;
}

export interface StatusView {
  text: string;
  tooltip: string;
  warning: boolean;
}

/** "2/5 cases pass" from a check message, for the short status text. */
function cases(message: string | undefined): string | undefined {
  const m = /(\d+\/\d+) cases pass/.exec(message ?? "");
  return m ? m[1] : undefined;
}

export function view(status: Status): StatusView {
  const lines: string[] = [];
  const server = status.server ?? {};
  const check = status.check;
  if (status.client === "not found") {
    return {
      text: "$(error) akgen",
      tooltip: "akgen: the language server was not found. Click for the menu (settings, log).",
      warning: true,
    };
  }
  if (status.client === "stopped") {
    return { text: "$(debug-disconnect) akgen", tooltip: "akgen: the language server stopped. Click to restart it.", warning: true };
  }
  lines.push(`akgen-lsp ${server.version ?? ""}`.trim() + (status.origin ? ` (from ${status.origin})` : ""));
  if (server.toolchain) {
    lines.push(`Check on save: ${server.check_on_save ?? "manual"}, on ${server.toolchain}`);
  }
  if (server.model) {
    lines.push(`Completions: ${server.model}`);
  }
  let text = status.client === "starting" ? "$(loading~spin) akgen" : "$(check) akgen";
  let warning = false;
  if (check?.state) {
    lines.push(`Last check: ${check.message ?? check.state}` + (check.seconds ? ` (${check.seconds.toFixed(1)} s)` : ""));
    const short = cases(check.message);
    switch (check.state) {
      case "running":
        text = "$(sync~spin) akgen";
        break;
      case "passed":
        text = `$(pass) akgen${short ? " " + short : ""}`;
        break;
      case "failed":
        text = `$(error) akgen${short ? " " + short : ""}`;
        warning = true;
        break;
      case "error":
        text = "$(warning) akgen";
        warning = true;
        break;
      default:
        break;
    }
  }
  lines.push("Click for the akgen menu");
  return { text, tooltip: lines.join("\n"), warning };
}

/** The checks of each document, by URI, and the one the status item shows: the active editor's (no other file's
 * result after a save elsewhere); with no active editor, the last one. */
export class Checks {
  private readonly byUri = new Map<string, CheckStatus>();
  private last: CheckStatus | undefined;

  record(check: CheckStatus | undefined): void {
    if (!check) {
      return;
    }
    this.last = check;
    if (check.uri) {
      this.byUri.set(check.uri, check);
    }
  }

  /** What the item shows for the active editor's document (`activeUri`, as the server names it). */
  shown(activeUri: string | undefined): CheckStatus | undefined {
    if (activeUri === undefined) {
      return this.last;
    }
    return this.byUri.get(activeUri);
  }
}
