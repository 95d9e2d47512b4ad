import assert from "node:assert/strict";
import { lazyBuiltins, parseImportClause } from "../../../tools/distribution/lazy_builtins.ts";
import { rawBundle, writeFixture } from "./bundle_fixture.ts";

Deno.test("import clauses as esbuild prints them: default, namespace, named, renamed, combined", () => {
  assert.deepEqual(parseImportClause("util"), [{ local: "util", imported: "default" }]);
  assert.deepEqual(parseImportClause("* as http3"), [{ local: "http3", imported: "*" }]);
  assert.deepEqual(parseImportClause("{ EOL }"), [{ local: "EOL", imported: "EOL" }]);
  assert.deepEqual(parseImportClause("{ createHash as createHash2, createHmac }"), [
    { local: "createHash2", imported: "createHash" },
    { local: "createHmac", imported: "createHmac" },
  ]);
  assert.deepEqual(parseImportClause("fs4, { constants as fsConstants }"), [
    { local: "fs4", imported: "default" },
    { local: "fsConstants", imported: "constants" },
  ]);
  assert.equal(parseImportClause("{ a, b }, c"), undefined, "an unusual shape is refused, not guessed");
});

Deno.test("built-ins: no static import is left; the module's init binds them; import() preloads them", async () => {
  const dir = await writeFixture();
  try {
    const raw = await rawBundle(dir);
    assert.match(raw, /^import \{ basename \} from "node:path";$/m, "esbuild hoists the built-ins");
    const { code, report } = lazyBuiltins(raw);
    assert.equal(report.imports, 3);
    assert.deepEqual(report.sites, [
      { init: "init_fast", specifiers: [] },
      { init: "init_cold", specifiers: ["node:os", "node:path", "node:util"] },
    ]);
    assert.doesNotMatch(code, /^import /m);
    assert.match(
      code,
      /__govcat_preload\(\["node:os","node:path","node:util"\]\)\.then\(\(\) => \(init_cold\(\)/,
    );
    // The init of cold.ts binds its three imports before anything else.
    assert.match(
      code,
      /"cold\.ts"\(\) \{\n {4}__govcat_import_0\(\); __govcat_import_1\(\); __govcat_import_2\(\);\n/,
    );
    assert.match(
      code,
      /function __govcat_import_1\(\) \{\n.*\n {2}util = module\.exports;\n {2}format = module\.namespace\.format;\n\}/,
    );
    assert.match(code, /os = module\.namespace;/);

    await Deno.writeTextFile(`${dir}/lazy.js`, code);
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-config", "lazy.js", "you", "more"],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(new TextDecoder().decode(run.stderr), "");
    assert.equal(new TextDecoder().decode(run.stdout), "hello you \u2026\nb.txt function function\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("built-ins: an import outside a lazy module is refused rather than left eager", () => {
  const code = [
    "var __esm = () => () => {};",
    "",
    "// main.ts",
    'import { basename } from "node:path";',
    "console.log(basename(Deno.cwd()));",
    "",
  ].join("\n");
  assert.throws(() => lazyBuiltins(code), /cannot make this import lazy \(in main\.ts\)/);
});
