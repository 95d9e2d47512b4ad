/**
 * `deno task bundle`: builds `govcat.js` into a temporary directory, away from the repository, and runs it
 * with `deno run` the way a user who downloaded only that file would.
 */
import assert from "node:assert/strict";
import { OFFLINE_SERVE_ENV, runToEnd, toolsListOverStdio } from "../../lib/distribution/smoke.ts";
import { VERSION } from "../../lib/version.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("bundle: one self-contained file that prints its version and help and lists tools over stdio", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "govcat-bundle-" });
  try {
    const bundle = `${dir}/govcat.js`;
    const built = await runToEnd(
      Deno.execPath(),
      ["bundle", "--quiet", "--platform=deno", `--output=${bundle}`, "main.ts"],
      { cwd: ROOT, timeoutMs: 120_000 },
    );
    assert.equal(built.code, 0, built.stderr);
    const text = await Deno.readTextFile(bundle);
    assert.ok(text.startsWith("#!/usr/bin/env -S deno run"), "keeps main.ts's shebang");
    assert.doesNotMatch(text, /^import .* from "\.\.?\//m, "no relative imports are left");
    assert.doesNotMatch(text, /from "npm:/, "npm packages are inlined, not left as npm: imports");
    const run = ["run", "--allow-net", "--allow-env", "--allow-read", "--allow-write", "--no-config", bundle];

    await t.step("--version", async () => {
      const result = await runToEnd(Deno.execPath(), [...run, "--version"], { cwd: dir });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.trim(), `govcat ${VERSION}`);
    });
    await t.step("--help", async () => {
      const result = await runToEnd(Deno.execPath(), [...run, "--help"], { cwd: dir });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /Usage: govcat <group> <command>/);
      assert.match(result.stdout, /govcat serve/);
    });
    await t.step("serve over stdio answers tools/list", async () => {
      const answer = await toolsListOverStdio(Deno.execPath(), [...run, "serve"], {
        cwd: dir,
        env: OFFLINE_SERVE_ENV,
      });
      assert.equal(answer.serverName, "govcat");
      const names = answer.tools.map((tool) => tool.name);
      for (const name of ["get_entity", "search_entities", "list_available_operations", "invoke_operation"]) {
        assert.ok(names.includes(name), `${name} is listed`);
      }
      assert.equal(answer.code, 0, `exits cleanly when stdin closes; stderr: ${answer.stderr}`);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "bundle: serve --emulator seeds from the built-in seed and answers tools/list",
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "govcat-bundle-" });
    try {
      const bundle = `${dir}/govcat.js`;
      const built = await runToEnd(Deno.execPath(), [
        "bundle",
        "--quiet",
        "--platform=deno",
        `--output=${bundle}`,
        "main.ts",
      ], {
        cwd: ROOT,
      });
      assert.equal(built.code, 0, built.stderr);
      const answer = await toolsListOverStdio(Deno.execPath(), [
        "run",
        "-A",
        "--no-config",
        bundle,
        "serve",
        "--emulator",
      ], {
        cwd: dir,
      });
      assert.ok(answer.tools.length > 0);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
