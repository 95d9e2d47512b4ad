/**
 * Readiness for `deno publish` (JSR): the dry run type-checks the exports, looks for slow types and checks
 * the package metadata. govcat is released under the MIT License: the dry run must report no problem at all,
 * and the license must be named in deno.json, shipped as LICENSE and be the one the project chose.
 */
import assert from "node:assert/strict";
import { runToEnd } from "../../tools/distribution/smoke.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("the MIT License, copyright the govcat authors: named in deno.json, shipped as LICENSE, published", () => {
  const config = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`));
  assert.equal(config.license, "MIT");
  assert.ok(config.publish.include.includes("LICENSE"), "the published files include LICENSE");
  const text = Deno.readTextFileSync(`${ROOT}LICENSE`);
  assert.match(text, /^MIT License\n\nCopyright \(c\) \d{4} the govcat authors\n/);
  assert.match(text, /THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND/);
});

Deno.test("deno publish --dry-run: no slow types, no missing license, no problem at all", async () => {
  const result = await runToEnd(
    Deno.execPath(),
    ["publish", "--dry-run", "--allow-dirty", "--no-check=remote"],
    { cwd: ROOT, timeoutMs: 180_000, env: { NO_COLOR: "1" } },
  );
  const output = result.stdout + result.stderr;
  assert.match(output, /Checking for slow types in the public API/);
  assert.doesNotMatch(output, /^error\[/m, output);
  assert.equal(result.code, 0, output);
  // The build and documentation tools (bundling, compiling, docs generation, the Functions app) are not
  // the product: a user of the package gets lib/, cli/, the entry points and the docs the README links to.
  const published = [...output.matchAll(/file:\/\/(\S+)/g)].map((match) => match[1].replace(ROOT, ""));
  assert.ok(published.includes("lib/catalog/client.ts"), published.join("\n"));
  assert.ok(published.includes("lib/generated/fast_start_data.json"), published.join("\n"));
  assert.ok(published.includes("docs/index.md"), published.join("\n"));
  assert.deepEqual(published.filter((path) => /^(tools|tests)\//.test(path)), []);
});
