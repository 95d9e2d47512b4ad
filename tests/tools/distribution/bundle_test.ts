import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import {
  asciiOnly,
  bareDynamicImports,
  buildBundle,
  checkLazyStart,
  minifyArgs,
} from "../../../tools/distribution/bundle.ts";
import { FIXTURE_OUTPUT, writeFixture } from "./bundle_fixture.ts";

Deno.test("bundle: minified, ASCII only, built-ins lazy, the cold scope compiled eagerly; runs like its source", async () => {
  const dir = await writeFixture();
  try {
    const report = await buildBundle("out/app.js", { cwd: dir, hotRoots: ["fast.ts"] });
    assert.deepEqual(report.builtins.sites.map((site) => site.specifiers.length), [0, 3]);
    assert.deepEqual([report.scope.hot, report.scope.cold], [2, 1]);
    const code = await Deno.readTextFile(`${dir}/out/app.js`);
    assert.equal(report.bytes, new TextEncoder().encode(code).length);
    assert.doesNotMatch(code, /[\u0080-\uffff]/, "one-byte source");
    assert.match(
      code,
      /\.__govcat_cold_scope=function\(\)\{/,
      "not parenthesized: compiled when first called",
    );
    assert.doesNotMatch(code, /\/\/ cold\.ts/, "minified");

    const run = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-config", "out/app.js", "you", "more"],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(new TextDecoder().decode(run.stderr), "");
    assert.equal(new TextDecoder().decode(run.stdout), FIXTURE_OUTPUT);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bundle: a run that exits at once still stores the V8 code cache, so the next one compiles nothing", async () => {
  const dir = await writeFixture();
  const denoDir = await Deno.makeTempDir({ prefix: "govcat-bundle-deno-dir-" });
  try {
    await buildBundle("app.js", { cwd: dir, hotRoots: ["fast.ts"] });
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-config", "app.js", "you"],
      cwd: dir,
      env: { DENO_DIR: denoDir, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
    // main.ts calls Deno.exit as soon as it has printed; without a turn of the event loop, Deno never
    // stores the cache of the module still evaluating.
    const db = new DatabaseSync(`${denoDir}/v8_code_cache_v2`, { readOnly: true });
    try {
      const rows = db.prepare("SELECT specifier FROM codecache").all() as Array<{ specifier: string }>;
      assert.ok(
        rows.some((row) => row.specifier.endsWith("/app.js")),
        `no code cache for app.js in ${JSON.stringify(rows)}`,
      );
    } finally {
      db.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(denoDir, { recursive: true });
  }
});

Deno.test("bundle: characters outside ASCII become escapes that mean the same in strings and patterns", () => {
  const source = 'const s = "a\u2026b"; const r = /[\u2018\u2019]/; [s, r.test("\u2019")]';
  const escaped = asciiOnly(source);
  assert.equal(escaped, 'const s = "a\\u2026b"; const r = /[\\u2018\\u2019]/; [s, r.test("\\u2019")]');
  assert.deepEqual(new Function(escaped.replace("[s, r", "return [s, r"))(), ["a\u2026b", true]);
});

Deno.test("bundle: the second pass keeps bare dynamic imports external and refuses static built-ins", () => {
  const code = 'import("kerberos"); import("./x.js"); import("node:fs"); import("data:text/javascript,"); ' +
    'import("npm:y"); import("@scope/pkg")';
  assert.deepEqual(bareDynamicImports(code), ["@scope/pkg", "kerberos"]);
  assert.deepEqual(minifyArgs("in.js", "out.js", ["kerberos"]).filter((arg) => arg.startsWith("--")), [
    "--quiet",
    "--platform=deno",
    "--no-config",
    "--minify",
    "--keep-names",
    "--external=kerberos",
    "--output=out.js",
  ]);
  checkLazyStart('var a=1;import("node:fs").then(f);');
  assert.throws(
    () => checkLazyStart('import{inspect as i}from"node:util";'),
    /imports a built-in statically/,
  );
  assert.throws(() => checkLazyStart('import fs from "node:fs";'), /imports a built-in statically/);
  assert.throws(() => checkLazyStart('import"node:process";'), /imports a built-in statically/);
});
