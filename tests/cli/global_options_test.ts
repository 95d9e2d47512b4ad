import assert from "node:assert/strict";
import { builtinArgs, takeLeadingGlobals } from "../../cli/global_options.ts";
import { UsageError } from "../../lib/core/errors.ts";

Deno.test("global options before the command are taken off the front", () => {
  const leading = takeLeadingGlobals([
    "--profile",
    "prod",
    "-o",
    "table",
    "-v",
    "entity",
    "get",
    "--verbose",
  ]);
  assert.deepEqual(leading.global, { profile: "prod", output: "table", verbose: true });
  assert.deepEqual(leading.rest, ["entity", "get", "--verbose"]);
  assert.deepEqual(takeLeadingGlobals(["--profile=dev", "serve"]).rest, ["serve"]);
  // Words that are properties of every object are not options.
  assert.deepEqual(takeLeadingGlobals(["constructor", "x"]).rest, ["constructor", "x"]);
  assert.deepEqual(takeLeadingGlobals(["toString", "entity"]).rest, ["toString", "entity"]);
  // Anything else ends the leading options: the caller refuses an unknown option there.
  assert.deepEqual(takeLeadingGlobals(["--colour", "entity"]).rest, ["--colour", "entity"]);
});

Deno.test("--output takes json, table, csv and tsv; --query its expression as written, before the command", () => {
  for (const format of ["json", "table", "csv", "tsv"]) {
    assert.deepEqual(takeLeadingGlobals([`--output=${format}`, "search", "query"]).global, {
      output: format,
    });
  }
  const leading = takeLeadingGlobals(["--query", "value[].{n: name}", "-o", "tsv", "search", "query"]);
  assert.deepEqual(leading.global, { query: "value[].{n: name}", output: "tsv" });
  assert.deepEqual(leading.rest, ["search", "query"]);
  assert.deepEqual(takeLeadingGlobals(["--query=a=b", "x"]).global, { query: "a=b" });
});

Deno.test("bad leading options are refused naming the option and what it takes", () => {
  for (
    const [args, message] of [
      [["--profile"], /--profile needs a value/],
      [["--profile", "--verbose", "entity"], /--profile needs a value/],
      [["--output=yaml", "entity"], /^--output must be one of json, table, csv, tsv, got "yaml"\.$/],
      [["-o", "entity"], /^--output must be one of json, table, csv, tsv, got "entity"\.$/],
      [["--query=", "entity"], /--query needs a JMESPath expression/],
      [["--query", " ", "entity"], /--query needs a JMESPath expression/],
      [["--verbose=maybe", "entity"], /--verbose takes true or false/],
    ] as const
  ) {
    assert.throws(
      () => takeLeadingGlobals([...args]),
      (e) => e instanceof UsageError && message.test(e.message),
    );
  }
});

Deno.test("built-in commands get the global options they take as their own arguments; others are refused", () => {
  assert.deepEqual(builtinArgs({ profile: "prod", verbose: true }, "serve"), ["--profile=prod", "--verbose"]);
  assert.deepEqual(builtinArgs({ verbose: false }, "emulator"), []);
  assert.throws(() => builtinArgs({ output: "table" }, "serve"), /--output does not apply to govcat serve/);
  assert.throws(() => builtinArgs({ query: "a" }, "serve"), /--query does not apply to govcat serve/);
  assert.throws(
    () => builtinArgs({ profile: "x" }, "emulator"),
    /--profile does not apply to govcat emulator/,
  );
});
