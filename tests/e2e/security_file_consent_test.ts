/**
 * Files an MCP call may replace or remove: an import through `invoke_operation`
 * names an existing file as its reject file, its checkpoint to discard with `restart`, or a checkpoint
 * whose lock file's name is taken; each is refused without `"overwrite": true`, naming the file and the
 * argument, with the file byte for byte unchanged and nothing sent. And the roots a client declares over
 * HTTP: honoured only when the server authenticates its clients (a bearer token here), never for any
 * local process that reaches an unauthenticated loopback port. Loopback only; bounded.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ListRootsRequestSchema, loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { type McpClient, resultJson, startHarness } from "../support/mcp_harness.ts";

const PRECIOUS = "the user's notes, not to be replaced\n";
const ENTITIES =
  "typeName,qualifiedName,displayName\nDataSet,ds://consent/1,One\nDataSet,ds://consent/2,Two\n";

async function withRoot<T>(test: (root: string, outside: string) => Promise<T>): Promise<T> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "govcat-consent-" }));
  const root = join(base, "root");
  const outside = join(base, "outside");
  await Deno.mkdir(root);
  await Deno.mkdir(outside);
  try {
    return await test(root, outside);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

async function bulkImport(client: McpClient, args: Record<string, unknown>) {
  const result = await client.callTool({
    name: "invoke_operation",
    arguments: { operation: "entity.bulk-import", arguments: { csvFile: "entities.csv", ...args } },
  });
  return { isError: result.isError === true, json: resultJson(result), text: JSON.stringify(result) };
}

Deno.test("an import over MCP replaces no existing file without overwrite: reject file, checkpoint on restart, lock", async () => {
  await withRoot(async (root) => {
    await Deno.writeTextFile(join(root, "entities.csv"), ENTITIES);
    for (const name of ["notes.txt", "keep.txt", "plans.lock"]) {
      await Deno.writeTextFile(join(root, name), PRECIOUS);
    }
    const h = await startHarness({ env: { CATALOG_MCP_FILE_ROOT: root } });
    try {
      const before = h.emulator.entityCount();
      const cases = [
        [{ errorsFile: "notes.txt" }, /^--errors-file: notes\.txt already exists; nothing was written\.$/],
        [
          { checkpointFile: "keep.txt", restart: true },
          /^--checkpoint-file: keep\.txt exists and restarting would discard it; nothing was sent\.$/,
        ],
        // The run's lock goes beside the checkpoint: "plans" locks as plans.lock, someone's file.
        [
          { checkpointFile: "plans" },
          /^--checkpoint-file: .*plans\.lock already exists; nothing was written\.$/,
        ],
      ] as const;
      for (const [args, message] of cases) {
        const refused = await bulkImport(h.client, args);
        assert.equal(refused.isError, true, refused.text);
        assert.match(String(refused.json.message), message);
        assert.match(String(refused.json.hint), /"overwrite": true/);
      }
      for (const name of ["notes.txt", "keep.txt", "plans.lock"]) {
        assert.equal(await Deno.readTextFile(join(root, name)), PRECIOUS, `${name} is unchanged`);
      }
      assert.equal(h.emulator.entityCount(), before, "nothing was sent");
      assert.deepEqual(
        [...Deno.readDirSync(root)].map((e) => e.name).sort(),
        ["entities.csv", "keep.txt", "notes.txt", "plans.lock"],
        "no checkpoint, lock or temporary file is left",
      );

      // With the caller's consent the same import goes ahead.
      const consented = await bulkImport(h.client, { errorsFile: "notes.txt", overwrite: true });
      assert.equal(consented.isError, false, consented.text);
      assert.equal((consented.json.result as { created: number }).created, 2);
    } finally {
      await h.close();
    }
  });
});

/** An SDK client over streamable HTTP declaring `declared` as its only root. */
async function rootsClient(url: URL, declared: string, token?: string): Promise<McpClient> {
  const { Client, StreamableHTTPClientTransport } = await loadMcpClientSdk();
  const client = new Client({ name: "declares-roots", version: "1.0.0" }, {
    capabilities: { roots: { listChanged: true } },
  });
  client.setRequestHandler(
    ListRootsRequestSchema,
    () => ({ roots: [{ uri: pathToFileURL(declared).href }] }),
  );
  const headers = token ? { authorization: `Bearer ${token}` } : undefined;
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

async function validate(client: McpClient, args: Record<string, unknown>) {
  const result = await client.callTool({
    name: "invoke_operation",
    arguments: { operation: "validate.csv", arguments: args },
  });
  return { isError: result.isError === true, json: resultJson(result), text: JSON.stringify(result) };
}

Deno.test("over unauthenticated HTTP a client's declared root is not used: no read, no write there", async () => {
  await withRoot(async (_root, outside) => {
    const secret = "collection_name,friendly_name\nsecret-line,Not for other processes\n";
    await Deno.writeTextFile(join(outside, "secret.csv"), secret);
    const h = await startHarness({ noClient: true });
    const client = await rootsClient(new URL("/mcp", h.baseUrl), outside);
    try {
      const read = await validate(client, { csvFile: join(outside, "secret.csv") });
      assert.equal(read.isError, true, read.text);
      assert.match(
        String(read.json.message),
        /no file access: the roots an MCP client declares are used over HTTP/,
      );
      assert.match(String(read.json.message), /CATALOG_MCP_AUTH_TOKEN or Entra ID sign-in/);
      assert.ok(!read.text.includes("secret-line"), "nothing of the file is shown");
      const written = await client.callTool({
        name: "invoke_operation",
        arguments: { operation: "templates.write", arguments: { name: "collections", outputFile: "t.csv" } },
      });
      assert.equal(written.isError, true, JSON.stringify(written));
      assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name), ["secret.csv"], "nothing written");
    } finally {
      await client.close();
      await h.close();
    }
  });
});

Deno.test("over HTTP with a bearer token a client's declared root is honoured", async () => {
  await withRoot(async (root) => {
    await Deno.writeTextFile(join(root, "ok.csv"), "collection_name,friendly_name\nfinance,Finance\n");
    const token = "a-long-random-test-token-1234567890";
    const h = await startHarness({ noClient: true, authToken: token });
    const client = await rootsClient(new URL("/mcp", h.baseUrl), root, token);
    try {
      const checked = await validate(client, { csvFile: "ok.csv" });
      assert.equal(checked.isError, false, checked.text);
      assert.equal((checked.json.result as { rows: number }).rows, 1);
      const outside = await validate(client, { csvFile: "/etc/passwd" });
      assert.equal(outside.isError, true, "still confined to the declared root");
    } finally {
      await client.close();
      await h.close();
    }
  });
});
