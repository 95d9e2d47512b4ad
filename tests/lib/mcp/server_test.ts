/**
 * The tool server's confinement of file arguments to CATALOG_MCP_FILE_ROOT, through a real MCP client
 * over streamable HTTP against the seeded emulator: operations that read a file (a payload, a CSV) or
 * write one (collections export) get an error result naming the root for a path outside it, and work for
 * a path inside. Also: the root is checked when the server starts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../../../lib/config.ts";
import { ConfigError } from "../../../lib/errors.ts";
import { createLogger } from "../../../lib/log.ts";
import { createToolServices } from "../../../lib/mcp/server.ts";
import { runGovcat } from "../../support/govcat_process.ts";
import { type Harness, resultJson, startHarness } from "../../support/mcp_harness.ts";

async function withRoot(test: (h: Harness, root: string, outside: string) => Promise<void>) {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "govcat-mcp-root-" }));
  const root = join(base, "root");
  const outside = join(base, "outside");
  await Deno.mkdir(root);
  await Deno.mkdir(outside);
  const h = await startHarness({ env: { CATALOG_MCP_FILE_ROOT: root } });
  try {
    await test(h, root, outside);
  } finally {
    await h.close();
    await Deno.remove(base, { recursive: true });
  }
}

async function invoke(h: Harness, operation: string, args: Record<string, unknown>) {
  const result = await h.client.callTool({
    name: "invoke_operation",
    arguments: { operation, arguments: args },
  });
  return { isError: result.isError === true, json: resultJson(result) };
}

function assertRefused(
  outcome: { isError: boolean; json: Record<string, unknown> },
  option: string,
  path: string,
  root: string,
) {
  assert.equal(outcome.isError, true, JSON.stringify(outcome.json));
  assert.equal(outcome.json.error, "UsageError");
  assert.equal(
    outcome.json.message,
    `${option}: ${path} is outside the directory this server may use (${root}).`,
  );
  assert.match(String(outcome.json.hint), /CATALOG_MCP_FILE_ROOT/);
}

Deno.test("invoke_operation: files read outside CATALOG_MCP_FILE_ROOT are refused, inside read", async () => {
  await withRoot(async (h, root, outside) => {
    const secret = join(outside, "types.json");
    await Deno.writeTextFile(secret, JSON.stringify({ entityDefs: [] }));
    assertRefused(
      await invoke(h, "types.create-type-defs", { payloadFile: secret }),
      "--payload-file",
      secret,
      root,
    );
    assertRefused(
      await invoke(h, "types.create-type-defs", { payloadFile: "../outside/types.json" }),
      "--payload-file",
      "../outside/types.json",
      root,
    );
    await Deno.writeTextFile(join(outside, "collections.csv"), "collection_name,friendly_name\nx,X\n");
    assertRefused(
      await invoke(h, "collections.import", { csvFile: join(outside, "collections.csv") }),
      "--csv-file",
      join(outside, "collections.csv"),
      root,
    );

    // A link inside the root leading out of it is refused too, naming where it leads.
    await Deno.symlink(secret, join(root, "link.json"));
    const viaLink = await invoke(h, "types.create-type-defs", { payloadFile: "link.json" });
    assert.equal(viaLink.isError, true);
    assert.match(String(viaLink.json.message), new RegExp(`link\\.json is outside .*it leads to ${secret}`));

    // Inside the root, relative to it: the file is read (and its content judged).
    await Deno.writeTextFile(join(root, "broken.json"), "{ not json");
    const broken = await invoke(h, "types.create-type-defs", { payloadFile: "broken.json" });
    assert.equal(broken.isError, true);
    assert.match(String(broken.json.message), /^broken\.json is not valid JSON/);
  });
});

Deno.test("invoke_operation: collections export writes inside the root only", async () => {
  await withRoot(async (h, root, outside) => {
    const target = join(outside, "collections.csv");
    assertRefused(
      await invoke(h, "collections.export", { outputFile: target }),
      "--output-file",
      target,
      root,
    );
    assert.deepEqual([...Deno.readDirSync(outside)], [], "nothing was written outside");

    const written = await invoke(h, "collections.export", { outputFile: "export/collections.csv" });
    assert.equal(written.isError, true, "a missing directory is reported, not created");
    assert.match(String(written.json.message), /--output-file: directory not found: export/);

    const inside = await invoke(h, "collections.export", { outputFile: "collections.csv" });
    assert.equal(inside.isError, false, JSON.stringify(inside.json));
    assert.equal((inside.json.result as { rows: number }).rows, 4);
    const csv = await Deno.readTextFile(join(root, "collections.csv"));
    assert.match(csv, /^collection_name,friendly_name\r?\nemulator,/);
  });
});

Deno.test("the tool server's file root defaults to the working directory and must exist", async () => {
  const config = (env: Record<string, string> = {}) =>
    loadConfig({ CATALOG_ACCOUNT_NAME: "contoso", CATALOG_ENDPOINT: "http://127.0.0.1:9", ...env });
  const logger = createLogger("error", { write: () => {} });
  const files = createToolServices({ config: config(), logger }).operationContext().files!;
  assert.equal(
    await files.readable("deno.json", "--payload-file"),
    join(await Deno.realPath(Deno.cwd()), "deno.json"),
  );
  const elsewhere = await Deno.makeTempFile({ prefix: "govcat-outside-cwd-" });
  try {
    await assert.rejects(
      files.readable(elsewhere, "--payload-file"),
      /is outside the directory this server may use/,
    );
  } finally {
    await Deno.remove(elsewhere);
  }

  const missing = join(Deno.cwd(), "no-such-directory-for-govcat-tests");
  assert.throws(
    () => createToolServices({ config: config({ CATALOG_MCP_FILE_ROOT: missing }), logger }),
    (error: unknown) =>
      error instanceof ConfigError && error.variable === "CATALOG_MCP_FILE_ROOT" &&
      error.message.includes(`"${missing}", which does not exist`),
  );
});

Deno.test("govcat serve refuses to start with a file root that does not exist", async () => {
  const run = await runGovcat(["serve"], {
    CATALOG_ACCOUNT_NAME: "contoso",
    CATALOG_ENDPOINT: "http://127.0.0.1:9",
    CATALOG_MCP_FILE_ROOT: "/no/such/govcat/root",
  });
  assert.equal(run.code, 2, run.stderr);
  assert.match(
    run.stderr,
    /error: CATALOG_MCP_FILE_ROOT is "\/no\/such\/govcat\/root", which does not exist/,
  );
  assert.equal(run.stdout, "");
});
