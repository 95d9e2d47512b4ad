/**
 * `deno task compile`: a standalone binary for this machine, with its permissions baked in and the seed
 * file included, run with no Deno around it. `deno compile` needs Deno's runtime image (denort); machines
 * that cannot download it name a local one in `DENORT_BIN`, and without it this test is skipped.
 */
import assert from "node:assert/strict";
import {
  compileArgs,
  compileTarget,
  hostTarget,
  outputName,
  permissionsFor,
  RUNTIME_FLAGS,
  TARGETS,
} from "../../tools/distribution/compile.ts";
import { OFFLINE_SERVE_ENV, runToEnd, toolsListOverStdio } from "../../tools/distribution/smoke.ts";
import { VERSION } from "../../lib/core/version.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const DENORT_BIN = Deno.env.get("DENORT_BIN");

Deno.test("compile: five release targets, each with the Azure CLI allowed and every host reachable", () => {
  assert.deepEqual([...TARGETS].map(outputName), [
    "govcat-x86_64-unknown-linux-gnu",
    "govcat-aarch64-unknown-linux-gnu",
    "govcat-x86_64-apple-darwin",
    "govcat-aarch64-apple-darwin",
    "govcat-x86_64-pc-windows-msvc.exe",
  ]);
  for (const target of TARGETS) {
    const permissions = permissionsFor(target);
    assert.ok(permissions.includes("--allow-net"), "all hosts: the catalog host depends on the account");
    assert.ok(permissions.some((flag) => /^--allow-run=az,azd\b/.test(flag)));
  }
});

Deno.test("compile: the binaries carry the V8 settings, which this Deno accepts", async () => {
  const compile = compileArgs("x86_64-unknown-linux-gnu", "dist/govcat");
  for (const flag of RUNTIME_FLAGS) assert.ok(compile.includes(flag), flag);
  // The same flags under deno run: an unknown V8 flag would stop every binary at start-up.
  const args = ["run", "--allow-read", "--allow-env", ...RUNTIME_FLAGS, "main.ts", "--version"];
  const result = await runToEnd(Deno.execPath(), args, { cwd: ROOT });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, "");
  assert.equal(result.stdout.trim(), `govcat ${VERSION}`);
});

Deno.test({
  name: DENORT_BIN
    ? "compile: the host binary prints its version and help, serves tools/list over stdio and seeds its emulator"
    : "compile: SKIPPED — DENORT_BIN is not set, and deno compile cannot download Deno's runtime image (denort) here",
  ignore: DENORT_BIN === undefined,
  fn: async (t) => {
    const dir = await Deno.makeTempDir({ prefix: "govcat-compile-" });
    try {
      const target = hostTarget();
      const binary = await compileTarget(target, `${dir}/${outputName(target)}`, ROOT);
      // Run from an empty directory: nothing may be read from the repository.
      await t.step("--version", async () => {
        const result = await runToEnd(binary, ["--version"], { cwd: dir });
        assert.equal(result.code, 0, result.stderr);
        assert.equal(result.stdout.trim(), `govcat ${VERSION}`);
      });
      await t.step("--help", async () => {
        const result = await runToEnd(binary, ["--help"], { cwd: dir });
        assert.equal(result.code, 0, result.stderr);
        assert.match(result.stdout, /Usage: govcat <group> <command>/);
      });
      await t.step("serve over stdio answers tools/list", async () => {
        const answer = await toolsListOverStdio(binary, ["serve"], { cwd: dir, env: OFFLINE_SERVE_ENV });
        assert.equal(answer.serverName, "govcat");
        assert.ok(answer.tools.some((tool) => tool.name === "search_entities"));
        assert.equal(answer.code, 0, answer.stderr);
      });
      await t.step("serve --emulator reads the included seed file", async () => {
        const answer = await toolsListOverStdio(binary, ["serve", "--emulator"], { cwd: dir });
        assert.ok(answer.tools.length > 0);
        assert.equal(answer.code, 0, answer.stderr);
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
