// node --test checks of the pure helpers (no VS Code needed): `npm test`.
import { strict as assert } from "node:assert";
import { test } from "node:test";

import { explicitSettings, serverCommand, startFailureMessage } from "../src/settings";

test("the server command defaults to `akgen serve`", () => {
  assert.deepEqual(serverCommand(undefined), { command: "akgen", args: ["serve"] });
  assert.deepEqual(serverCommand([]), { command: "akgen", args: ["serve"] });
});

test("a bare akgen path gets the serve sub-command; other commands are kept as they are", () => {
  assert.deepEqual(serverCommand(["/opt/venv/bin/akgen"]), { command: "/opt/venv/bin/akgen", args: ["serve"] });
  assert.deepEqual(serverCommand("akgen-lsp"), { command: "akgen-lsp", args: [] });
  assert.deepEqual(serverCommand("python -m akgen_lsp.cli serve"), {
    command: "python",
    args: ["-m", "akgen_lsp.cli", "serve"],
  });
});

test("a start failure says what to do next", () => {
  const message = startFailureMessage({ command: "akgen", args: ["serve"] }, new Error("spawn akgen ENOENT"));
  assert.match(message, /akgen serve: spawn akgen ENOENT/);
  assert.match(message, /akgen\.server\.command/);
});

test("only user-set values are sent, nested like akgen.toml, the most specific scope winning", () => {
  const table: Record<string, { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown }> = {
    arch: {},
    "cann.version": { globalValue: "8.5", workspaceValue: "9.1" },
    "lint.debounce_ms": { globalValue: 90 },
    "lint.select": { workspaceFolderValue: ["AKG1"], globalValue: ["AKG2"] },
    "server.command": { globalValue: ["akgen", "serve"] },
  };
  const sent = explicitSettings(Object.keys(table).concat(["model.path"]), (key) => table[key]);
  assert.deepEqual(sent, { cann: { version: "9.1" }, lint: { debounce_ms: 90, select: ["AKG1"] } });
});

test("values that are not JSON are dropped", () => {
  const sent = explicitSettings(["arch", "model.path"], (key) => (key === "arch" ? { globalValue: () => 1 } : { globalValue: "m.gguf" }));
  assert.deepEqual(sent, { model: { path: "m.gguf" } });
});
