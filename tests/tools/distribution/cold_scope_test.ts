import assert from "node:assert/strict";
import { deferEntry } from "../../../tools/distribution/bundle_entry.ts";
import { coldScope } from "../../../tools/distribution/cold_scope.ts";
import { lazyBuiltins } from "../../../tools/distribution/lazy_builtins.ts";
import { rawBundle, writeFixture } from "./bundle_fixture.ts";

Deno.test("cold scope: modules the roots do not reach move into one function, called on first need", async () => {
  const dir = await writeFixture();
  try {
    const rewritten = deferEntry(lazyBuiltins(await rawBundle(dir)).code);
    const { code, report } = coldScope(rewritten, { roots: ["fast.ts"] });
    assert.deepEqual(report, { hot: 2, cold: 1, keptHot: [] }, "fast.ts and main.ts stay, cold.ts moves");
    const scope = code.indexOf("__govcat_coldScope.__govcat_cold_scope = function () {");
    assert.ok(scope > code.indexOf("// fast.ts"), "hot modules come first");
    assert.ok(code.indexOf("// cold.ts") > scope, "cold.ts is inside the scope");
    assert.ok(code.indexOf("// main.ts") > code.indexOf("return { cold_exports"), "the entry stays last");
    assert.match(
      code,
      /return \{ cold_exports: cold_exports, init_cold: init_cold \};/,
    );
    assert.match(
      code,
      /\.then\(\(\) => \(__govcat_cold\(\)\.init_cold\(\), __govcat_cold\(\)\.cold_exports\)\)/,
    );
    assert.match(code, /\.then\(\(\) => \(init_fast\(\), fast_exports\)\)/, "hot imports are unchanged");

    await Deno.writeTextFile(`${dir}/scoped.js`, code);
    const run = (...args: string[]) =>
      new Deno.Command(Deno.execPath(), { args: ["run", "--no-config", "scoped.js", ...args], cwd: dir })
        .output();
    const fast = await run("you");
    assert.equal(new TextDecoder().decode(fast.stdout), "hello you \u2026\n");
    const more = await run("you", "more");
    assert.equal(new TextDecoder().decode(more.stderr), "");
    assert.equal(new TextDecoder().decode(more.stdout), "hello you \u2026\nb.txt function function\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cold scope: a hot module that names a cold module's init keeps it hot, with what it reaches", () => {
  const code = [
    "var __esm = (fn, res) => () => (fn && (res = fn[Object.keys(fn)[0]](fn = 0)), res);",
    "",
    "// leaf.ts",
    "var init_leaf = __esm({",
    '  "leaf.ts"() {',
    "  }",
    "});",
    "",
    "// helper.ts",
    "var helper_exports = {};",
    "var init_helper = __esm({",
    '  "helper.ts"() {',
    "    init_leaf();",
    "  }",
    "});",
    "",
    "// fast.ts",
    "var init_fast = __esm({",
    '  "fast.ts"() {',
    "  }",
    "});",
    "function later() { return helper_exports; }",
    "",
    "// main.ts",
    "init_fast();",
    "console.log(later());",
    "",
  ].join("\n");
  const { report } = coldScope(code, { roots: ["fast.ts"] });
  assert.deepEqual(report.keptHot.sort(), ["helper.ts", "leaf.ts"]);
  assert.equal(report.cold, 0);
  // A call is an edge of the module graph already.
  const called = coldScope(code.replace("return helper_exports;", "init_helper();"), { roots: ["fast.ts"] });
  assert.deepEqual([called.report.cold, called.report.keptHot], [0, []]);
  assert.throws(() => coldScope(code, { roots: ["missing.ts"] }), /missing\.ts is not a lazy module/);
  assert.throws(() => coldScope(code, { entry: "cli.ts" }), /does not end with cli\.ts/);
  // A header-like line inside a template literal would cut a module in two: refused.
  const split = code.replace("function later()", "var text = `\n// notes.md\n`;\nfunction later()");
  assert.throws(() => coldScope(split, { roots: ["fast.ts"] }), /"\/\/ notes\.md" starts no lazy module/);
});
