import assert from "node:assert/strict";
import { type CliIo, reportsFailures, runCli } from "../../cli/run.ts";
import { createOperationRegistry, inputFields } from "../../lib/operations/mod.ts";
import { VERSION } from "../../lib/version.ts";

async function run(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { env, stdout: (t) => out.push(t), stderr: (t) => err.push(t) };
  const code = await runCli(argv, io);
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

Deno.test("--version and top-level --help", async () => {
  const version = await run(["--version"]);
  assert.equal(version.code, 0);
  assert.equal(version.stdout, `govcat ${VERSION}`);
  const help = await run(["--help"]);
  assert.equal(help.code, 0);
  for (const group of createOperationRegistry().groups()) {
    assert.match(help.stdout, new RegExp(`\\n  ${group.name} `));
  }
  assert.match(help.stdout, /serve/);
  assert.match(help.stdout, /CATALOG_ACCOUNT_NAME/);
  assert.deepEqual(await run([]), { ...help });
});

Deno.test("group and command help come from the registry", async () => {
  const group = await run(["entity", "--help"]);
  assert.equal(group.code, 0);
  for (const op of createOperationRegistry().inGroup("entity")) {
    assert.match(group.stdout, new RegExp(op.summary));
  }
  const command = await run(["entity", "get", "--help"]);
  assert.equal(command.code, 0);
  for (const field of inputFields(createOperationRegistry().get("entity.get")!.input)) {
    assert.match(command.stdout, new RegExp(`--${field.flag}`));
  }
  assert.match(command.stdout, /--guid=<string>.*required/);
  assert.deepEqual((await run(["help", "entity", "get"])).stdout, command.stdout);
  const bare = await run(["entity"]);
  assert.equal(bare.code, 2, "a group without a command is incomplete");
  assert.match(bare.stderr, /Commands:/);
});

Deno.test("unknown group, command or option: did-you-mean and exit code 2", async () => {
  const group = await run(["entiy", "get"]);
  assert.equal(group.code, 2);
  assert.match(group.stderr, /unknown command group "entiy"\. Did you mean "entity"\?/);
  const command = await run(["entity", "gett"]);
  assert.equal(command.code, 2);
  assert.match(command.stderr, /unknown command "gett" in group entity\. Did you mean "get"\?/);
  const option = await run(["entity", "get", "--gud=1"]);
  assert.equal(option.code, 2);
  assert.match(option.stderr, /unknown option --gud\. Did you mean "--guid"\?/);
  const flag = await run(["--verison"]);
  assert.equal(flag.code, 2);
  assert.match(flag.stderr, /Did you mean "--version"\?/);
});

Deno.test("configuration errors exit 2 before any network call", async () => {
  const missing = await run(["entity", "get", "--guid=abc"], {});
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /CATALOG_ACCOUNT_NAME is required/);
  const badTimeout = await run(["entity", "get", "--guid=abc"], {
    CATALOG_ACCOUNT_NAME: "c",
    CATALOG_TIMEOUT: "x",
  });
  assert.equal(badTimeout.code, 2);
  assert.match(badTimeout.stderr, /CATALOG_ACCOUNT_NAME|CATALOG_TIMEOUT/);
});

Deno.test("every group of the spec is dispatched", async () => {
  const spec = [
    "entity",
    "types",
    "profile",
    "config",
    "validate",
    "lineage_csv",
    "lineage",
    "glossary",
    "collections",
    "domain",
    "uc",
    "scan",
    "search",
  ];
  for (const group of spec) {
    const result = await run([group, "--help"]);
    assert.equal(result.code, 0, `${group} --help`);
    assert.match(result.stdout, new RegExp(`^govcat ${group}:`));
  }
});

Deno.test("a bulk summary that counts failed rows makes the exit code 1", () => {
  assert.equal(reportsFailures({ assigned: 3, failed: 1 }), true);
  assert.equal(reportsFailures({ failed: [{ guid: "x", error: "404" }] }), true);
  assert.equal(reportsFailures({ assigned: 3, failed: 0 }), false);
  assert.equal(reportsFailures({ failed: [] }), false);
  assert.equal(reportsFailures([1, 2]), false);
  assert.equal(reportsFailures(undefined), false);
});
