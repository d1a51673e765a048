// The MCP server's command line, from the language server's command the extension found.
import { strict as assert } from "node:assert";
import { test } from "node:test";

import { mcpCommand } from "../src/mcpCommand";

test("`akgen serve` becomes `akgen mcp`, with the same program", () => {
  const found = { command: "/home/me/akgen-lsp/.venv/bin/akgen", args: ["serve"], origin: ".venv in /home/me/akgen-lsp" };
  assert.deepEqual(mcpCommand(found), { command: "/home/me/akgen-lsp/.venv/bin/akgen", args: ["mcp"] });
});

test("a setting's `python -m akgen_lsp serve --flag` keeps the interpreter and drops the server's flags", () => {
  const found = { command: "/opt/py/bin/python", args: ["-m", "akgen_lsp", "serve", "--tcp"], origin: "the setting" };
  assert.deepEqual(mcpCommand(found), { command: "/opt/py/bin/python", args: ["-m", "akgen_lsp", "mcp"] });
});

test("the akgen-lsp entry point gives the akgen beside it; a wrapper script gives nothing", () => {
  assert.deepEqual(mcpCommand({ command: "/usr/local/bin/akgen-lsp", args: [], origin: "the setting" }),
    { command: "/usr/local/bin/akgen", args: ["mcp"] });
  assert.deepEqual(mcpCommand({ command: "akgen-lsp", args: [], origin: "the setting" }), { command: "akgen", args: ["mcp"] });
  assert.equal(mcpCommand({ command: "/home/me/bin/start-server.sh", args: [], origin: "the setting" }), undefined);
});
