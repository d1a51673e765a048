// The order in which the extension looks for the server, with a file system made of a set of paths.
import { strict as assert } from "node:assert";
import { test } from "node:test";

import { candidates, commandFromSetting, discover, notFoundMessage, startFailureMessage } from "../src/discovery";

const base = { setting: [], workspaceFolders: ["/home/me/akgen-lsp/samples"], pathEnv: "/usr/local/bin:/usr/bin", platform: "linux" };

test("the workspace's .venv above the opened folder is found without a setting", () => {
  const files = new Set(["/home/me/akgen-lsp/.venv/bin/akgen", "/usr/bin/akgen"]);
  const found = discover(base, (f) => files.has(f));
  assert.deepEqual(found, { command: "/home/me/akgen-lsp/.venv/bin/akgen", args: ["serve"], origin: ".venv in /home/me/akgen-lsp" });
});

test("then the Python extension's interpreter, then the PATH", () => {
  const withPython = { ...base, pythonInterpreter: "/opt/env/bin/python" };
  const order = candidates(withPython).map((c) => c.command);
  assert.ok(order.indexOf("/opt/env/bin/akgen") > order.indexOf("/home/me/.venv/bin/akgen"));
  assert.ok(order.indexOf("/opt/env/bin/akgen") < order.indexOf("/usr/local/bin/akgen"));
  const found = discover(withPython, (f) => f === "/opt/env/bin/akgen" || f === "/usr/bin/akgen");
  assert.equal(found?.command, "/opt/env/bin/akgen");
  assert.equal(discover(base, (f) => f === "/usr/bin/akgen")?.origin, "the PATH");
});

test("a setting wins and is the only candidate", () => {
  assert.deepEqual(candidates({ ...base, setting: ["/x/akgen"] }), [{ command: "/x/akgen", args: ["serve"], origin: "the setting akgen.server.command" }]);
  assert.deepEqual(commandFromSetting("python -m akgen_lsp serve")?.args, ["-m", "akgen_lsp", "serve"]);
  assert.equal(commandFromSetting([]), undefined);
  // a bare name from the setting is left to the PATH lookup of the spawn
  assert.equal(discover({ ...base, setting: "akgen-lsp" }, () => false)?.command, "akgen-lsp");
});

test("nothing found: the message says where we looked and what to do", () => {
  assert.equal(discover(base, () => false), undefined);
  const message = notFoundMessage(base);
  assert.match(message, /\.venv\/bin\/akgen/);
  assert.match(message, /pip install akgen-lsp/);
  assert.match(message, /akgen\.server\.command/);
  const failed = startFailureMessage({ command: "akgen", args: ["serve"], origin: "the PATH" }, new Error("spawn akgen EACCES"));
  assert.match(failed, /akgen serve, from the PATH: spawn akgen EACCES/);
});
