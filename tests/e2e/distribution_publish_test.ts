/**
 * Readiness for `deno publish` (JSR): the dry run type-checks the exports and looks for slow types. Until
 * the owner chooses a license, the one problem it may report is the missing license — that is the owner's
 * decision, not ours — and nothing else; once deno.json names one (or a LICENSE file exists) it must pass.
 */
import assert from "node:assert/strict";
import { runToEnd } from "../../lib/distribution/smoke.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

function hasLicense(): boolean {
  const config = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`));
  if (typeof config.license === "string" && config.license.trim() !== "") return true;
  return ["LICENSE", "LICENSE.md", "LICENSE.txt"].some((name) => {
    try {
      return Deno.statSync(`${ROOT}${name}`).isFile;
    } catch {
      return false;
    }
  });
}

Deno.test("deno publish --dry-run: no slow types or other problem; only a missing license while none is chosen", async () => {
  const result = await runToEnd(
    Deno.execPath(),
    ["publish", "--dry-run", "--allow-dirty", "--no-check=remote"],
    { cwd: ROOT, timeoutMs: 180_000, env: { NO_COLOR: "1" } },
  );
  const output = result.stdout + result.stderr;
  assert.match(output, /Checking for slow types in the public API/);
  if (hasLicense()) {
    assert.equal(result.code, 0, output);
    return;
  }
  assert.notEqual(result.code, 0);
  const problems = [...output.matchAll(/^error\[([a-z-]+)\]/gm)].map((m) => m[1]);
  assert.deepEqual(problems, ["missing-license"], output);
  assert.match(output, /Found 1 problem/);
});
