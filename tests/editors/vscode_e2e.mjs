// One session of a person using the akgen extension in a real VS Code (code-server 4.100.0) with default settings,
// driven by keys and read from the DOM with playwright-core on Debian's chromium. Run by tests/editors/test_vscode.py,
// which starts code-server on loopback and passes:
//   E2E_URL          the workbench URL (with ?folder=<workspace>)
//   E2E_PLAYWRIGHT   the folder whose node_modules has playwright-core
//   E2E_SHOTS        where the screenshots go (one per step, named after it)
//   E2E_REPORT       the JSON report: [{step, ok, seconds, detail, screenshot}]
//   E2E_TINY_GGUF    a tiny GGUF for the model step
// Steps are one session (one editor start): each waits for what a person would see, then screenshots.

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

const SHOTS = env("E2E_SHOTS");
const REPORT = env("E2E_REPORT");
const report = [];
let page;
let shot = 0;

function save() {
  fs.writeFileSync(REPORT, JSON.stringify(report, null, 2));
}

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
  shot += 1;
  entry.screenshot = path.join(SHOTS, `${String(shot).padStart(2, "0")}-${name.replace(/[^a-z0-9]+/gi, "-")}.png`);
  await page.screenshot({ path: entry.screenshot }).catch(() => {});
  save();
  if (!entry.ok) throw new Error(`step "${name}" failed: ${entry.detail}`);
}

/** A screenshot within the current step (a popup that the step closes again: hover, menus, ghost text). */
async function snap(what) {
  const name = `${String(shot + 1).padStart(2, "0")}-${what.replace(/[^a-z0-9]+/gi, "-")}.png`;
  await page.screenshot({ path: path.join(SHOTS, name) }).catch(() => {});
}

async function until(what, fn, timeout = 30000) {
  const deadline = Date.now() + timeout;
  let last;
  while (Date.now() < deadline) {
    try {
      last = await fn();
      if (last) return last;
    } catch (error) {
      last = error;
    }
    await page.waitForTimeout(200);
  }
  throw new Error(`timed out waiting for ${what} (last: ${last})`);
}

async function command(name) {
  await page.keyboard.press("Control+Shift+P");
  await page.waitForSelector(".quick-input-widget:not([style*='display: none']) input");
  await page.keyboard.type(name);
  await page.waitForTimeout(400);
  await page.keyboard.press("Enter");
}

async function openFile(relative) {
  await page.keyboard.press("Control+P");
  await page.waitForSelector(".quick-input-widget:not([style*='display: none']) input");
  await page.keyboard.type(relative);
  await until(`${relative} in quick open`, async () =>
    (await page.locator(".quick-input-list .monaco-list-row").first().innerText()).includes(path.basename(relative)));
  await page.keyboard.press("Enter");
  await until(`the ${path.basename(relative)} tab`, async () =>
    (await page.locator(".tab.active").innerText()).includes(path.basename(relative)));
  await page.locator(".editor-instance .monaco-editor textarea").first().focus();
}

async function goTo(line, column) {
  await page.keyboard.press("Control+G");
  await page.waitForSelector(".quick-input-widget:not([style*='display: none']) input");
  await page.keyboard.type(`${line}:${column}`);
  await page.keyboard.press("Enter");
  await page.waitForTimeout(300);
}

async function problems(filter = "") {
  // the Problems list is virtual: only the rows in view exist, so filter it as a person would
  const box = page.locator(".panel input[placeholder^='Filter']").first();
  if ((await box.inputValue()) !== filter) {
    await box.fill(filter);
    await page.waitForTimeout(300);
  }
  const rows = await page.locator(".markers-panel .monaco-list-row").allInnerTexts();
  return rows.map((t) => t.replace(/\s+/g, " "));
}

async function openProblems() {
  if (!(await page.locator(".markers-panel").isVisible().catch(() => false))) {
    await page.keyboard.press("Control+Shift+M");
  }
  await page.waitForSelector(".markers-panel");
}

async function statusText() {
  return (await page.locator("#akgen\\.akgen-lsp\\.akgen\\.status, .statusbar-item[id*='akgen.status']").first().innerText()).trim();
}

async function editorText() {
  return (await page.locator(".editor-instance .view-lines").first().innerText()).replace(/\u00a0/g, " ");
}

async function codeAction(title, timeout = 30000) {
  // a build error's fixes are offered once they verified on the simulator, a few seconds after the error: a person
  // who finds the menu without the fix closes it and presses Ctrl+. again
  const item = page.locator(".action-widget .monaco-list-row", { hasText: title }).first();
  await until(`the code action "${title}"`, async () => {
    await page.keyboard.press("Control+.");
    const shown = await item.waitFor({ state: "visible", timeout: 3000 }).then(() => true, () => false);
    if (!shown) await page.keyboard.press("Escape");
    return shown;
  }, timeout);
  await snap(`code-action-menu-${title}`);
  const offered = await page.locator(".action-widget .monaco-list-row").allInnerTexts();
  for (let i = 0; i < 12; i++) {
    const focused = await page.locator(".action-widget .monaco-list-row.focused").allInnerTexts();
    if (focused.some((t) => t.includes(title))) break;
    await page.keyboard.press("ArrowDown");
  }
  await page.keyboard.press("Enter");
  return offered;
}

const browser = await chromium.launch({
  executablePath: process.env.E2E_CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
try {
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });

  await step("workbench and server start", async () => {
    await page.goto(env("E2E_URL"));
    await page.waitForSelector(".monaco-workbench", { timeout: 90000 });
    const text = await until("the akgen status bar item", async () => {
      const t = await statusText();
      return t.includes("akgen") && !t.includes("loading") ? t : false;
    }, 90000);
    return `status bar: ${text}`;
  });

  await step("diagnostic in the Problems panel", async () => {
    await openFile("broken/akg120_dequeued_not_freed.cpp");
    await goTo(46, 1); // the marked line, in view
    await until("a squiggle", () => page.locator(".squiggly-warning, .squiggly-error").first().isVisible(), 60000);
    await openProblems();
    const rows = await until("the AKG120 problem", async () => {
      const r = await problems("akg120_dequeued_not_freed");
      return r.find((x) => x.includes("AKG120") && x.includes("never freed")) ?? false;
    });
    return rows;
  });

  await step("hover on the API shows its documentation", async () => {
    await page.locator(".editor-instance .monaco-editor textarea").first().focus();
    await goTo(46, 47);
    await page.keyboard.press("Control+K");
    await page.keyboard.press("Control+I");
    const hover = await until("the hover", async () => {
      const t = await page.locator(".monaco-hover:not(.hidden)").first().innerText();
      return t.includes("DeQue") ? t : false;
    });
    await snap("hover-open");
    await page.keyboard.press("Escape");
    return hover.split("\n").slice(0, 3).join(" / ");
  });

  await step("completion after AscendC::", async () => {
    await goTo(48, 1);
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    await page.keyboard.type("AscendC::");
    const all = await until("the suggest widget after AscendC::", async () => {
      const rows = await page.locator(".suggest-widget.visible .monaco-list-row").allInnerTexts();
      return rows.some((r) => r.includes("Add")) ? rows : false;
    });
    await page.keyboard.type("DataC");
    const labels = await until("DataCopy in the suggest widget", async () => {
      const rows = await page.locator(".suggest-widget.visible .monaco-list-row").allInnerTexts();
      return rows.some((r) => r.includes("DataCopy")) ? rows : false;
    });
    await snap("completion-list");
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+Shift+K"); // delete the line again
    return `first items ${all.slice(0, 3).map((l) => l.split("\n")[0]).join(", ")}; after DataC: ${labels.map((l) => l.split("\n")[0]).join(", ")}`;
  });

  await step("the quick fix is applied", async () => {
    await goTo(46, 60); // the end of the DeQue line: the cursor need not be on the diagnostic
    const offered = await codeAction("Free 'xLocal'");
    const text = await until("the FreeTensor inserted", async () => {
      const t = await editorText();
      return t.includes("inQueueX.FreeTensor(xLocal);") ? t : false;
    });
    await openProblems();
    await until("AKG120 gone from Problems", async () => !(await problems("akg120_dequeued_not_freed")).some((r) => r.includes("AKG120")), 20000);
    return `offered: ${offered.join(" | ").slice(0, 200)}; ${text.includes("FreeTensor(xLocal)")}`;
  });

  await step("saving a kernel with a task shows the estimate", async () => {
    await openFile("kernels/add_custom.cpp");
    await page.keyboard.press("Control+S");
    await openProblems();
    const row = await until("the estimate in Problems", async () => {
      const r = (await problems("add_custom")).find((x) => x.includes("estimated") && x.includes("1/1 cases pass"));
      return r ?? false;
    }, 120000);
    const status = await until("the check result in the status bar", async () => {
      const t = await statusText();
      return t.includes("1/1") ? t : false;
    });
    return `${row} / status: ${status}`;
  });

  await step("a build error and its code action", async () => {
    await goTo(61, 27); // after "xLocal" in Add(zLocal, xLocal, ...)
    await page.keyboard.type("l");
    await page.keyboard.press("Control+S");
    const row = await until("the build error in Problems", async () => {
      const r = (await problems("add_custom")).find((x) => x.includes("xLocall") && x.includes("did you mean"));
      return r ?? false;
    }, 120000);
    await goTo(61, 23);
    const offered = await codeAction("Change 'xLocall' to 'xLocal'", 120000);
    if (!offered.some((t) => t.includes("Change 'xLocall' to 'xLocal'") && t.includes("verified: compiles"))) {
      throw new Error(`the fix is not titled with what was verified: ${offered.join(" | ")}`);
    }
    await until("the fix in the text", async () => (await editorText()).includes("Add(zLocal, xLocal, yLocal"));
    await page.waitForSelector(".action-widget", { state: "hidden" }).catch(() => {});
    await page.locator(".editor-instance .monaco-editor textarea").first().focus();
    await page.keyboard.press("Control+S");
    await until("the build error gone and the estimate back", async () => {
      const r = await problems("add_custom");
      return !r.some((x) => x.includes("xLocall")) && r.some((x) => x.includes("1/1 cases pass"));
    }, 120000);
    return `${row} / offered: ${offered.join(" | ").slice(0, 600)}`;
  });

  await step("ghost text from the catalog", async () => {
    await goTo(62, 1);
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    await page.keyboard.type("AscendC::DataCo");
    const ghost = await until("ghost text", async () => {
      const t = await page.locator(".editor-instance .ghost-text-decoration, .editor-instance .ghost-text").allInnerTexts();
      return t.join("").includes("py") ? t.join("") : false;
    });
    await snap("catalog-ghost-text");
    await page.keyboard.press("Tab");
    const line = await until("the accepted completion", async () => {
      const t = await editorText();
      return t.split("\n").find((l) => l.includes("AscendC::DataCopy(")) ?? false;
    });
    await page.keyboard.press("Control+Shift+K");
    return `ghost: ${ghost.trim()} / accepted: ${line.trim()}`;
  });

  await step("ghost text from a tiny GGUF model", async () => {
    const gguf = env("E2E_TINY_GGUF");
    await openFile("akgen.toml");
    await page.keyboard.press("Control+End");
    // a person switches the model on in the project's akgen.toml (the grammar makes the tiny model's answer known)
    await page.keyboard.press("Enter");
    await page.keyboard.type(`[model]\nbackend = "llama_cpp"\npath = "${gguf}"\ngrammar = 'root ::= "PipeBarrier<PIPE_V>();"'\n`);
    await page.keyboard.press("Control+S");
    await openFile("kernels/add_custom.cpp");
    await goTo(62, 1);
    await page.keyboard.press("End");
    await page.keyboard.press("Enter"); // an empty line: nothing typed, so no suggest widget; ask for ghost text
    await page.keyboard.press("Alt+Backslash");
    const ghost = await until("the model's ghost text", async () => {
      const t = await page.locator(".editor-instance .ghost-text-decoration, .editor-instance .ghost-text").allInnerTexts();
      return t.join("").includes("PipeBarrier<PIPE_V>();") ? t.join("") : false;
    }, 60000);
    await snap("model-ghost-text");
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+Shift+K");
    return `ghost: ${ghost.trim()}`;
  });
} finally {
  save();
  await browser.close();
}
