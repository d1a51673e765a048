import { strict as assert } from "node:assert";
import { test } from "node:test";

import { estimateLenses } from "../src/lens";

test("the estimate diagnostic becomes a lens on its line; other diagnostics do not", () => {
  const lenses = estimateLenses([
    { code: "AKG120", message: "xLocal is never freed", line: 45 },
    { code: "AKGEN-ESTIMATE", message: "estimated 9.1 us on Ascend910B2 (estimate; bound: MTE2), 1/1 cases pass", line: 83 },
    { code: { value: "AKGEN-ESTIMATE" }, message: "estimated 2.0 us\nmore", line: 10 },
    { message: "no code", line: 1 },
  ]);
  assert.deepEqual(lenses, [
    { line: 83, title: "akgen: estimated 9.1 us on Ascend910B2 (estimate; bound: MTE2), 1/1 cases pass" },
    { line: 10, title: "akgen: estimated 2.0 us" },
  ]);
});
