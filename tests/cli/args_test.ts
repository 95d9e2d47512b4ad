import assert from "node:assert/strict";
import { parseOperationArgs } from "../../cli/args.ts";
import { z } from "../../lib/deps/zod.ts";
import { UsageError } from "../../lib/core/errors.ts";
import { defineOperation, READ, UPSERT } from "../../lib/operations/types.ts";

const operation = defineOperation({
  id: "glossary.list-terms",
  group: "glossary",
  command: "list-terms",
  summary: "test",
  input: z.object({
    glossaryGuid: z.string(),
    limit: z.number().int().min(1).max(1000).optional(),
    includeTermHierarchy: z.boolean().default(false),
    status: z.enum(["Draft", "Approved"]).optional(),
    tags: z.array(z.string()).optional(),
    attributes: z.record(z.string(), z.unknown()).optional(),
  }),
  positionals: ["glossaryGuid"],
  annotations: READ,
  run: () => Promise.resolve(null),
});

function usage(args: string[]): UsageError {
  try {
    parseOperationArgs(operation, args);
  } catch (e) {
    assert.ok(e instanceof UsageError, String(e));
    return e;
  }
  assert.fail(`accepted ${args.join(" ")}`);
}

Deno.test("options accept --name=value and --name value, kebab and camel case", () => {
  const a = parseOperationArgs(operation, ["--glossary-guid=g1", "--limit", "5", "--include-term-hierarchy"]);
  assert.deepEqual(a.input, { glossaryGuid: "g1", limit: 5, includeTermHierarchy: true });
  const b = parseOperationArgs(operation, ["--glossaryGuid", "g2", "--includeTermHierarchy=false"]);
  assert.deepEqual(b.input, { glossaryGuid: "g2", includeTermHierarchy: false });
});

Deno.test("positionals fill declared fields; lists repeat; JSON options parse", () => {
  const parsed = parseOperationArgs(operation, [
    "g3",
    "--tags=a",
    "--tags",
    "b",
    '--attributes={"owner":"x"}',
  ]);
  assert.deepEqual(parsed.input, {
    glossaryGuid: "g3",
    tags: ["a", "b"],
    attributes: { owner: "x" },
    includeTermHierarchy: false,
  });
});

Deno.test("global options are recognised anywhere", () => {
  const parsed = parseOperationArgs(operation, ["--output=table", "--glossary-guid=g", "-v"]);
  assert.equal(parsed.global.output, "table");
  assert.equal(parsed.global.verbose, true);
  assert.equal(parseOperationArgs(operation, ["--help"]).global.help, true, "help skips validation");
});

Deno.test("global options given before the command count unless the command's own options repeat them", () => {
  const given = { profile: "prod", output: "table", verbose: true } as const;
  const parsed = parseOperationArgs(operation, ["--glossary-guid=g"], given);
  assert.deepEqual(parsed.global, { profile: "prod", output: "table", verbose: true, help: false });
  const repeated = parseOperationArgs(
    operation,
    ["--glossary-guid=g", "--output=json", "--profile=dev"],
    given,
  );
  assert.deepEqual([repeated.global.output, repeated.global.profile], ["json", "dev"]);
});

Deno.test("every bad input names the option and what is expected", () => {
  assert.match(usage([]).message, /missing required option --glossary-guid/);
  assert.match(
    usage(["--glossary-guid=g", "--limt=5"]).message,
    /unknown option --limt\. Did you mean "--limit"\?/,
  );
  assert.match(usage(["--glossary-guid=g", "--limit=five"]).message, /--limit takes an integer, got "five"/);
  assert.match(usage(["--glossary-guid=g", "--limit=2000"]).message, /--limit: .*1000/);
  assert.match(
    usage(["--glossary-guid=g", "--status=Live"]).message,
    /--status: must be one of Draft, Approved \(any letter case\), not "Live"/,
  );
  assert.match(usage(["--glossary-guid=g", "--attributes={bad"]).message, /--attributes takes JSON/);
  assert.match(
    usage(["--glossary-guid=g", "--include-term-hierarchy=perhaps"]).message,
    /takes true or false/,
  );
  assert.match(usage(["--glossary-guid"]).message, /needs a value/);
  assert.match(usage(["--glossary-guid=a", "--glossary-guid=b"]).message, /given 2 times/);
  assert.match(usage(["g", "extra"]).message, /unexpected argument: extra/);
  assert.match(
    usage(["--glossary-guid=g", "--output=xml"]).message,
    /--output must be one of json, table, csv, tsv, got "xml"/,
  );
});

Deno.test("options are accepted in snake case too, uniformly, and reported in kebab case", () => {
  const parsed = parseOperationArgs(operation, [
    "--glossary_guid=g4",
    "--include_term_hierarchy",
    "--tags=a",
  ]);
  assert.deepEqual(parsed.input, { glossaryGuid: "g4", includeTermHierarchy: true, tags: ["a"] });
  // The three spellings name one option: given twice, whatever the spellings, it is refused as one.
  assert.match(usage(["--glossary_guid=a", "--glossaryGuid=b"]).message, /--glossary-guid is given 2 times/);
  assert.match(
    usage(["--glossary_guid"]).message,
    /option --glossary_guid needs a value \(--glossary-guid=…\)/,
  );
});

const enums = defineOperation({
  id: "lineage.get",
  group: "lineage",
  command: "get",
  summary: "test",
  input: z.object({
    direction: z.enum(["INPUT", "OUTPUT", "BOTH"]).default("BOTH"),
    status: z.enum(["Draft", "Approved"]).optional(),
    facet: z.array(z.enum(["entityType", "assetType"])).optional(),
    note: z.string().optional(),
  }),
  annotations: READ,
  run: () => Promise.resolve(null),
});

Deno.test("enum values are taken in any letter case and passed on as the schema spells them", () => {
  const parsed = parseOperationArgs(enums, [
    "--direction=input",
    "--status",
    "APPROVED",
    "--facet=ENTITYTYPE",
    "--facet=assetType",
    "--note=input",
  ]);
  assert.deepEqual(parsed.input, {
    direction: "INPUT",
    status: "Approved",
    facet: ["entityType", "assetType"],
    note: "input",
  });
  let error: unknown;
  try {
    parseOperationArgs(enums, ["--direction=sideways"]);
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof UsageError);
  assert.match(
    error.message,
    /--direction: must be one of INPUT, OUTPUT, BOTH \(any letter case\), not "sideways"/,
  );
});

Deno.test("a long option written with one dash is refused as such, not read as short options", () => {
  assert.match(
    usage(["--glossary-guid=g", "-limit=5"]).message,
    /option -limit=5 has one dash; long options take two \(--limit=5\)\.$/,
  );
  assert.match(usage(["-glossary-guid", "g"]).message, /option -glossary-guid has one dash/);
  const misspelt = usage(["--glossary-guid=g", "-limt=5"]);
  assert.match(misspelt.message, /--limt is not one of its options\. Did you mean "--limit"\?/);
  // The short forms still work, with their value attached or apart, and after `--` nothing is an option.
  assert.equal(parseOperationArgs(operation, ["g", "-otable"]).global.output, "table");
  assert.equal(parseOperationArgs(operation, ["g", "-v", "-o", "csv"]).global.output, "csv");
});

Deno.test("--confirm is taken by every write, also one that asks nothing; a read refuses it, saying why", () => {
  const update = defineOperation({
    id: "domain.update",
    group: "domain",
    command: "update",
    summary: "test",
    input: z.object({ domainName: z.string(), description: z.string().optional() }),
    annotations: UPSERT,
    run: () => Promise.resolve(null),
  });
  for (const confirm of ["--confirm", "--confirm=true"]) {
    const parsed = parseOperationArgs(update, ["--domain-name=sales", confirm]);
    assert.deepEqual(parsed.input, { domainName: "sales" });
  }
  assert.throws(
    () => parseOperationArgs(update, ["--domain-name=s", "--confirm=maybe"]),
    /takes true or false/,
  );
  const read = usage(["--glossary-guid=g", "--confirm"]);
  assert.match(read.message, /unknown option --confirm/);
  assert.match(read.hint ?? "", /only reads: it changes nothing, so there is nothing to confirm/);
});
