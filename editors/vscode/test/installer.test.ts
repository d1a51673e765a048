// The server the extension carries: which wheel, which Python, and the steps that install it.
import { strict as assert } from "node:assert";
import { test } from "node:test";

import { installSteps, markerFile, pickWheel, pythonCandidates } from "../src/installer";

test("the newest akgen-lsp wheel is picked, other files are not", () => {
  assert.equal(pickWheel(["README.md", "akgen_lsp-0.1.0-py3-none-any.whl", "akgen_lsp-0.10.2-py3-none-any.whl",
    "akgen_lsp-0.9.0-py3-none-any.whl", "other-1.0-py3-none-any.whl"]), "akgen_lsp-0.10.2-py3-none-any.whl");
  assert.equal(pickWheel([]), undefined);
});

test("Pythons: the user's interpreter first, then python3 and python on the absolute PATH entries", () => {
  assert.deepEqual(pythonCandidates(".:/usr/bin", "linux", "/opt/py/bin/python"),
    ["/opt/py/bin/python", "/usr/bin/python3", "/usr/bin/python"]);
});

test("a fresh environment is made, then the wheel installed with its packages; a refresh replaces the wheel", () => {
  const env = "/g/server-env";
  const wheel = "/ext/server/akgen_lsp-0.1.0-py3-none-any.whl";
  const fresh = installSteps("/usr/bin/python3", env, wheel, "linux", true);
  assert.deepEqual(fresh.map((s) => [s.command, ...s.args].join(" ")), [
    "/usr/bin/python3 -m venv --clear --without-pip /g/server-env",
    "/usr/bin/python3 -m pip --python /g/server-env/bin/python install --disable-pip-version-check --no-input --quiet uv",
    `/g/server-env/bin/uv pip install --python /g/server-env/bin/python ${wheel} pip`,
  ]);
  // uv is a speed-up: without it the step goes on, and ensurepip then pip install the wheel when uv fails
  assert.equal(fresh[1].optional, true);
  assert.deepEqual(fresh[2].fallback?.map((s) => [s.command, ...s.args].join(" ")), [
    "/g/server-env/bin/python -m ensurepip",
    `/g/server-env/bin/python -m pip install --disable-pip-version-check --no-input ${wheel}`,
  ]);
  assert.match(fresh[2].title, /akgen-lsp 0\.1\.0/);
  const again = installSteps("/usr/bin/python3", env, wheel, "linux", false);
  assert.deepEqual(again[0].args.slice(-3), ["--force-reinstall", "--no-deps", wheel]);
  assert.deepEqual(again[1].args.slice(-1), [wheel]);
  assert.equal(markerFile(env), "/g/server-env/akgen-wheel.txt");
});
