/**
 * `deno task bundle`: builds `govcat.js` into a temporary directory, away from the repository, and runs it
 * with `deno run` the way a user who downloaded only that file would: version, help, the MCP server over
 * stdio (the fast start, then the real server) and with its emulator, a catalog command. The build's
 * rewrites for a fast start (tools/distribution/bundle.ts) are checked on the real bundle: no built-in
 * imported statically, a small top level, and a V8 code cache stored even by a run that exits at once.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { buildBundle, checkLazyStart } from "../../tools/distribution/bundle.ts";
import { OFFLINE_SERVE_ENV, runToEnd, toolsListOverStdio } from "../../tools/distribution/smoke.ts";
import { startEmulator } from "../../lib/emulator/mod.ts";
import { VERSION } from "../../lib/core/version.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("bundle: one self-contained file that starts lazily and runs every kind of command", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "govcat-bundle-" });
  try {
    const bundle = `${dir}/govcat.js`;
    const report = await buildBundle(bundle, { cwd: ROOT });
    const text = await Deno.readTextFile(bundle);
    assert.ok(text.startsWith("#!/usr/bin/env -S deno run"), "keeps main.ts's shebang");
    assert.doesNotMatch(text, /\bfrom\s*"(?:\.\.?\/|npm:)/, "npm packages and local modules are inlined");
    checkLazyStart(text);
    assert.doesNotMatch(text, /[\u0080-\uffff]/, "ASCII only: V8 gets a one-byte source");
    const fastStart = report.builtins.sites.find((site) => site.init === "init_serve_fast");
    assert.deepEqual(fastStart?.specifiers, [], "the stdio fast start loads no node: built-in");
    assert.ok(
      report.scope.hot * 20 < report.scope.cold,
      `the top level keeps the fast start's modules only: ${report.scope.hot} hot, ${report.scope.cold} cold`,
    );
    // The README's command line for the bundle (`-q` keeps Deno's note about a missing `az` out of every run).
    const run = [
      "run",
      "-q",
      "--allow-net",
      "--allow-env",
      "--allow-read",
      "--allow-write",
      "--allow-run=az,azd",
      "--no-config",
      bundle,
    ];

    await t.step("--version", async () => {
      const result = await runToEnd(Deno.execPath(), [...run, "--version"], { cwd: dir });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.trim(), `govcat ${VERSION}`);
      assert.equal(result.stderr, "", "nothing but the answer, on a machine with or without az");
    });
    await t.step("--help", async () => {
      const result = await runToEnd(Deno.execPath(), [...run, "--help"], { cwd: dir });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /Usage: govcat .*<group> <command>/);
      assert.match(result.stdout, /govcat serve/);
    });
    await t.step("serve over stdio answers tools/list, hands over to the real server, exits", async () => {
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
    await t.step("serve --emulator seeds from the built-in seed and answers tools/list", async () => {
      const answer = await toolsListOverStdio(Deno.execPath(), [...run, "serve", "--emulator"], { cwd: dir });
      assert.ok(answer.tools.length > 0);
      assert.equal(answer.code, 0, answer.stderr);
    });
    await t.step("a catalog command against the emulator", async () => {
      const emulator = await startEmulator({ seed: true });
      try {
        const result = await runToEnd(Deno.execPath(), [...run, "search", "query", "--keywords=customer"], {
          cwd: dir,
          env: { CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: emulator.url },
        });
        assert.equal(result.code, 0, result.stderr);
        assert.ok(JSON.parse(result.stdout)["@search.count"] > 0, result.stdout);
      } finally {
        await emulator.close();
      }
    });
    await t.step("a --version run stores the V8 code cache, so the next start compiles nothing", async () => {
      const denoDir = await Deno.makeTempDir({ prefix: "govcat-bundle-deno-dir-" });
      try {
        const result = await runToEnd(Deno.execPath(), [...run, "--version"], {
          cwd: dir,
          env: { DENO_DIR: denoDir },
        });
        assert.equal(result.code, 0, result.stderr);
        const db = new DatabaseSync(`${denoDir}/v8_code_cache_v2`, { readOnly: true });
        try {
          const rows = db.prepare("SELECT specifier FROM codecache").all() as Array<{ specifier: string }>;
          assert.ok(rows.some((row) => row.specifier.endsWith("/govcat.js")), JSON.stringify(rows));
        } finally {
          db.close();
        }
      } finally {
        await Deno.remove(denoDir, { recursive: true });
      }
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
