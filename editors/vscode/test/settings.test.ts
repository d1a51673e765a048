// node --test checks of the pure helpers (no VS Code needed): `npm test`.
import { strict as assert } from "node:assert";
import { test } from "node:test";

import { explicitSettings, serverKey } from "../src/settings";

test("only user-set values are sent, nested like akgen.toml, the most specific scope winning", () => {
  const table: Record<string, { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown }> = {
    arch: {},
    "cann.version": { globalValue: "8.5", workspaceValue: "9.1" },
    "lint.delay": { globalValue: 90 },
    "lint.select": { workspaceFolderValue: ["AKG1"], globalValue: ["AKG2"] },
    "server.command": { globalValue: ["akgen", "serve"] },
  };
  const sent = explicitSettings(Object.keys(table).concat(["model.path"]), (key) => table[key]);
  assert.deepEqual(sent, { cann: { version: "9.1" }, lint: { debounce_ms: 90, select: ["AKG1"] } });
});

test("VS Code's camelCase keys are the server's akgen.toml keys", () => {
  assert.equal(serverKey("checkOnSave"), "check_on_save");
  assert.equal(serverKey("lint.extendSelect"), "lint.extend_select");
  assert.equal(serverKey("toolchain.timeout"), "toolchain.timeout_s");
  assert.equal(serverKey("model.path"), "model.path");
  const sent = explicitSettings(["checkOnSave"], () => ({ globalValue: "always" }));
  assert.deepEqual(sent, { check_on_save: "always" });
});

test("values that are not JSON are dropped", () => {
  const sent = explicitSettings(["arch", "model.path"], (key) => (key === "arch" ? { globalValue: () => 1 } : { globalValue: "m.gguf" }));
  assert.deepEqual(sent, { model: { path: "m.gguf" } });
});
