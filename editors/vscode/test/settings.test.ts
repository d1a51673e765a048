// node --test checks of the pure helpers (no VS Code needed): `npm test`.
import { strict as assert } from "node:assert";
import { test } from "node:test";

import { serverCommand, serverSettings, startFailureMessage } from "../src/settings";

test("client-only sections are not sent to the server", () => {
  const sent = serverSettings({
    server: { command: ["akgen", "serve"] },
    trace: { server: "verbose" },
    arch: "Ascend910B2",
    lint: { enable: true, select: ["AKG1"], debounce_ms: 150 },
    model: { backend: "none", path: "" },
  });
  assert.deepEqual(sent, {
    arch: "Ascend910B2",
    lint: { enable: true, select: ["AKG1"], debounce_ms: 150 },
    model: { backend: "none", path: "" },
  });
});

test("functions and undefined values are dropped", () => {
  const sent = serverSettings({ get: () => 1, arch: "Ascend310P", nothing: undefined, cann: { version: "8.5" } });
  assert.deepEqual(sent, { arch: "Ascend310P", cann: { version: "8.5" } });
});

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
