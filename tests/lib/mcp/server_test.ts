/**
 * The tool server's confinement of file arguments to CATALOG_MCP_FILE_ROOT, through a real MCP client
 * over streamable HTTP against the seeded emulator: operations that read a file (a payload, a CSV) or
 * write one (collections export) get an error result naming the root for a path outside it, and work for
 * a path inside. Also: the root is checked when the server starts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../../../lib/config/config.ts";
import { ConfigError, UsageError } from "../../../lib/core/errors.ts";
import { createLogger } from "../../../lib/core/log.ts";
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

    // A link inside the root leading out of it is refused too, without saying where it leads.
    await Deno.symlink(secret, join(root, "link.json"));
    const viaLink = await invoke(h, "types.create-type-defs", { payloadFile: "link.json" });
    assert.equal(viaLink.isError, true);
    assert.equal(
      viaLink.json.message,
      `--payload-file: link.json leads outside the directory this server may use (${root}).`,
    );
    assert.ok(!JSON.stringify(viaLink.json).includes(outside), "the link's target is not named");

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
    assert.equal((inside.json.result as { rows: number }).rows, 7, "the seed's 7 collections");
    const csv = await Deno.readTextFile(join(root, "collections.csv"));
    assert.match(csv, /^collection_name,friendly_name\r?\nemulator,/);
  });
});

Deno.test("without CATALOG_MCP_FILE_ROOT or a client's roots there is no file access, never the working directory", async () => {
  const config = (env: Record<string, string> = {}) =>
    loadConfig({ CATALOG_ACCOUNT_NAME: "contoso", CATALOG_ENDPOINT: "http://127.0.0.1:9", ...env });
  const logger = createLogger("error", { write: () => {} });
  const files = createToolServices({ config: config(), logger }).operationContext().files!;
  for (
    const attempt of [files.readable("deno.json", "--payload-file"), files.writable("x.csv", "--output-file")]
  ) {
    await assert.rejects(attempt, (error: unknown) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, /this tool server has no file access: no CATALOG_MCP_FILE_ROOT is set/);
      assert.match(
        error.hint ?? "",
        /Set CATALOG_MCP_FILE_ROOT \(or start the server with --file-root=DIR\)/,
      );
      assert.match(error.hint ?? "", /declares its roots/);
      return true;
    });
  }

  const missing = join(Deno.cwd(), "no-such-directory-for-govcat-tests");
  assert.throws(
    () => createToolServices({ config: config({ CATALOG_MCP_FILE_ROOT: missing }), logger }),
    (error: unknown) =>
      error instanceof ConfigError && error.variable === "CATALOG_MCP_FILE_ROOT" &&
      error.message.includes(`"${missing}", which does not exist`),
  );
  // The whole disk is never a root, however it is spelt.
  for (const root of ["/", "/tmp/..", "//"]) {
    assert.throws(
      () => createToolServices({ config: config({ CATALOG_MCP_FILE_ROOT: root }), logger }),
      (error: unknown) =>
        error instanceof ConfigError && error.variable === "CATALOG_MCP_FILE_ROOT" &&
        error.message.includes(`"${root}", which is the root of the file system`),
    );
  }
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
