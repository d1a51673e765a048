// The order in which the extension looks for the server, with a file system made of a set of paths: only user-level
// places, never a program inside the opened folder or the repository around it.
import { strict as assert } from "node:assert";
import { test } from "node:test";

import { candidates, commandFromSetting, discover, MANAGED_ORIGIN, notFoundMessage, startFailureMessage } from "../src/discovery";

const managedEnv = "/home/me/.config/Code/User/globalStorage/akgen.akgen-lsp/server-env";
const base = { setting: [], workspaceFolders: ["/home/me/akgen-lsp/samples"], managedEnv, pathEnv: "/usr/local/bin:/usr/bin", platform: "linux" };

test("a .venv in the opened folder or above it is never a candidate", () => {
  const files = new Set(["/home/me/akgen-lsp/.venv/bin/akgen", "/home/me/akgen-lsp/samples/.venv/bin/akgen"]);
  assert.equal(discover(base, (f) => files.has(f)), undefined);
  assert.ok(!candidates(base).some((c) => c.command.startsWith("/home/me/akgen-lsp/")));
  // nor a PATH entry that is relative or inside the workspace
  const withPath = { ...base, pathEnv: `.:bin:/home/me/akgen-lsp/samples/tools:/usr/bin` };
  assert.deepEqual(candidates(withPath).map((c) => c.command), [`${managedEnv}/bin/akgen`, "/usr/bin/akgen"]);
});

test("the Python extension's interpreter, then the extension's own environment, then the PATH", () => {
  const withPython = { ...base, pythonInterpreter: "/opt/env/bin/python" };
  assert.deepEqual(candidates(withPython).map((c) => c.command),
    ["/opt/env/bin/akgen", `${managedEnv}/bin/akgen`, "/usr/local/bin/akgen", "/usr/bin/akgen"]);
  const found = discover(withPython, (f) => f === "/opt/env/bin/akgen" || f === "/usr/bin/akgen");
  assert.equal(found?.command, "/opt/env/bin/akgen");
  assert.equal(discover(base, (f) => f === `${managedEnv}/bin/akgen` || f === "/usr/bin/akgen")?.origin, MANAGED_ORIGIN);
  assert.equal(discover(base, (f) => f === "/usr/bin/akgen")?.origin, "the PATH");
});

test("in Restricted Mode an interpreter inside the workspace is not used; trusted, the user's pick is", () => {
  const inside = { ...base, pythonInterpreter: "/home/me/akgen-lsp/samples/.venv/bin/python" };
  assert.ok(!candidates({ ...inside, trusted: false }).some((c) => c.command.includes("/samples/.venv/")));
  assert.equal(candidates({ ...inside, trusted: true })[0].command, "/home/me/akgen-lsp/samples/.venv/bin/akgen");
});

test("a setting wins and is the only candidate", () => {
  assert.deepEqual(candidates({ ...base, setting: ["/x/akgen"] }), [{ command: "/x/akgen", args: ["serve"], origin: "the setting akgen.server.command" }]);
  assert.deepEqual(commandFromSetting("python -m akgen_lsp serve")?.args, ["-m", "akgen_lsp", "serve"]);
  assert.equal(commandFromSetting([]), undefined);
  // a bare name from the setting is left to the PATH lookup of the spawn
  assert.equal(discover({ ...base, setting: "akgen-lsp" }, () => false)?.command, "akgen-lsp");
});

test("nothing found: the message says where we looked and what to do, naming no package that is on no index", () => {
  assert.equal(discover(base, () => false), undefined);
  const message = notFoundMessage(base, "no Python 3.10 or newer with venv was found on the PATH");
  assert.match(message, /extension's environment/);
  assert.match(message, /no Python 3\.10/);
  assert.match(message, /akgen: Install the language server/);
  assert.match(message, /akgen\.server\.command/);
  assert.doesNotMatch(message, /pip install akgen-lsp/);
  const failed = startFailureMessage({ command: "akgen", args: ["serve"], origin: "the PATH" }, new Error("spawn akgen EACCES"));
  assert.match(failed, /akgen serve, from the PATH: spawn akgen EACCES/);
  assert.doesNotMatch(failed, /pip install akgen-lsp/);
});
