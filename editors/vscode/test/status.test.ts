import { strict as assert } from "node:assert";
import { test } from "node:test";

import { Checks, view } from "../src/status";

test("the status bar says what the last check said, short", () => {
  const running = view({ client: "running", server: { version: "0.1.0", toolchain: "sim", model: "catalog" } });
  assert.equal(running.text, "$(check) akgen");
  assert.match(running.tooltip, /Check on save: manual, on sim/);
  assert.match(running.tooltip, /Completions: catalog/);
  const passed = view({ client: "running", check: { state: "passed", message: "add_custom.cpp: estimated 11.8 us on Ascend910B2 (estimate), 1/1 cases pass", seconds: 0.5 } });
  assert.equal(passed.text, "$(pass) akgen 1/1");
  assert.match(passed.tooltip, /Last check: add_custom\.cpp: estimated 11\.8 us .* \(0\.5 s\)/);
  const failed = view({ client: "running", check: { state: "failed", message: "k.cpp: no time estimate, 0/1 cases pass" } });
  assert.equal(failed.text, "$(error) akgen 0/1");
  assert.equal(failed.warning, true);
  assert.equal(view({ client: "running", check: { state: "running", message: "checking k.cpp on sim" } }).text, "$(sync~spin) akgen");
  assert.equal(view({ client: "not found" }).warning, true);
});

test("the item shows the active editor's kernel, not another file's last result", () => {
  const checks = new Checks();
  checks.record({ uri: "file:///w/a.cpp", state: "passed", message: "a.cpp: 1/1 cases pass" });
  checks.record({ uri: "file:///w/b.cpp", state: "failed", message: "b.cpp: 0/1 cases pass" });
  assert.equal(checks.shown("file:///w/a.cpp")?.state, "passed");
  assert.equal(checks.shown("file:///w/b.cpp")?.state, "failed");
  assert.equal(checks.shown("file:///w/c.cpp"), undefined); // a file never checked: no result shown
  assert.equal(checks.shown(undefined)?.uri, "file:///w/b.cpp"); // no editor: the last one
  assert.equal(view({ client: "running", check: checks.shown("file:///w/c.cpp") }).text, "$(check) akgen");
});
