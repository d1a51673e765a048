// Builds the akgen-lsp wheel from this checkout into server/, where the .vsix carries it (`npm run package` runs it
// through vscode:prepublish): the extension installs it on first use into the environment it manages
// (src/installer.ts). The checkout's .venv/bin/uv builds it (`uv build --wheel`), else $PYTHON or python3 (`pip wheel
// --no-deps`): the wheel alone, about 1.6 MB.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const extension = path.resolve(here, "..");
const repo = path.resolve(extension, "..", "..");
const out = path.join(extension, "server");
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
// uv, which scripts/setup.sh puts in the checkout's .venv, builds it in about half pip's time; pip when there is none
// or it fails (uv reads no pip configuration: a mirror set only for pip).
const uv = path.join(repo, ".venv", "bin", "uv");
let built = false;
if (fs.existsSync(uv)) {
  try {
    execFileSync(uv, ["build", "--quiet", "--wheel", "--out-dir", out, repo], { stdio: ["ignore", "inherit", "inherit"] });
    built = true;
  } catch {
    console.error("wheel.mjs: uv could not build the wheel; pip builds it");
  }
}
if (!built) {
  const python = process.env.PYTHON || "python3";
  execFileSync(python, ["-m", "pip", "wheel", "--quiet", "--no-deps", "--disable-pip-version-check", "--wheel-dir", out, repo], {
    stdio: ["ignore", "inherit", "inherit"],
  });
}
const wheels = fs.readdirSync(out).filter((f) => f.endsWith(".whl"));
if (wheels.length !== 1) {
  console.error(`wheel.mjs: expected one akgen-lsp wheel in ${out}, found ${wheels.join(", ") || "none"}`);
  process.exit(1);
}
console.log(`wheel.mjs: ${path.join("server", wheels[0])} (${(fs.statSync(path.join(out, wheels[0])).size / 1e6).toFixed(1)} MB)`);
