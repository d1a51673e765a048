// The akgen MCP server as VS Code 1.139 (code-server 4.139.1) sees it: the extension's MCP server definition
// provider, no mcp.json. Driven as a person does it, with playwright-core on Debian's chromium. Run by
// tests/editors/test_vscode_mcp.py, which starts code-server on loopback and passes:
//   E2E_URL, E2E_PLAYWRIGHT, E2E_CHROMIUM, E2E_SHOTS, E2E_REPORT (as for vscode_e2e.mjs)
// Steps: "MCP: List Servers" lists akgen (Stopped); its "Start Server" action starts it; the list then says Running.

import { createRequire } from "node:module";
import * as fs from "node:fs";
import * as path from "node:path";

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const require = createRequire(path.join(env("E2E_PLAYWRIGHT"), "package.json"));
const { chromium } = require("playwright-core");
const report = [];
let page;

async function step(name, fn) {
  const started = Date.now();
  const entry = { step: name, ok: false, seconds: 0, detail: "" };
  report.push(entry);
  try {
    entry.detail = (await fn()) ?? "";
    entry.ok = true;
  } catch (error) {
    entry.detail = String(error?.stack ?? error);
  }
  entry.seconds = (Date.now() - started) / 1000;
  entry.screenshot = path.join(env("E2E_SHOTS"), `${report.length}-${name.replace(/[^a-z0-9]+/gi, "-")}.png`);
  await page.screenshot({ path: entry.screenshot }).catch(() => {});
  fs.writeFileSync(env("E2E_REPORT"), JSON.stringify(report, null, 2));
  if (!entry.ok) throw new Error(`step "${name}" failed: ${entry.detail}`);
}

async function until(what, fn, timeout = 60000) {
  const deadline = Date.now() + timeout;
  let last;
  while (Date.now() < deadline) {
    try {
      last = await fn();
      if (last) return last;
    } catch (error) {
      last = error;
    }
    await page.waitForTimeout(300);
  }
  throw new Error(`timed out waiting for ${what} (last: ${last})`);
}

const rows = () => page.$$eval(".quick-input-widget .quick-input-list .monaco-list-row",
  (els) => els.map((e) => e.getAttribute("aria-label") ?? ""));

async function listServers() {
  await page.keyboard.press("Escape");
  await page.keyboard.press("Control+Shift+P");
  await page.waitForSelector(".quick-input-widget input");
  await page.keyboard.type("MCP: List Servers");
  await until("the command in the palette", async () => (await rows())[0]?.startsWith("MCP: List Servers"));
  await page.keyboard.press("Enter");
}

async function pick(label) {
  const all = await until(`a row starting "${label}"`, async () => {
    const r = await rows();
    return r.some((x) => x.startsWith(label)) ? r : null;
  });
  const i = all.findIndex((x) => x.startsWith(label));
  await page.locator(".quick-input-widget .quick-input-list .monaco-list-row").nth(i).click();
}

const browser = await chromium.launch({
  executablePath: env("E2E_CHROMIUM"),
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
try {
  await step("the workbench opens", async () => {
    await page.goto(env("E2E_URL"));
    await page.waitForSelector(".monaco-workbench", { timeout: 180000 });
    return "workbench";
  });
  await step("MCP: List Servers shows akgen from the extension", async () => {
    // the provider answers once the extension is active (akgen.toml in the folder activates it)
    const found = await until("akgen in the MCP server list", async () => {
      await listServers();
      await page.waitForTimeout(1500);
      const r = await rows();
      return r.find((x) => x.startsWith("akgen,")) ?? null;
    }, 120000);
    return found;
  });
  await step("Start Server runs akgen mcp", async () => {
    await pick("akgen,");
    await pick("Start Server");
    const running = await until("akgen Running", async () => {
      await listServers();
      await page.waitForTimeout(1500);
      const r = await rows();
      return r.find((x) => x.startsWith("akgen, Running")) ?? null;
    }, 120000);
    await page.keyboard.press("Escape");
    return running;
  });
} finally {
  await browser.close();
}
