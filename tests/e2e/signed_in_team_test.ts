/**
 * A signed-in team deployment end to end: `govcat serve --transport=http` as a subprocess with Entra ID
 * sign-in against a loopback https stand-in authority, calling the catalog as each user (on-behalf-of,
 * through the real `@azure/identity` OnBehalfOfCredential) against an emulator in team mode, where the
 * collection policies decide what each user may do. The account's first admin grants the others their
 * roles over MCP (`set_collection_role`), as a collection admin would; the reader's write is refused by the
 * catalog as that user until the admin grants data-curator on the collection written to; each user's
 * catalog token is obtained once and reused, and the audit lines name who did what.
 */
import assert from "node:assert/strict";
import { loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { startEmulator } from "../../lib/emulator/mod.ts";
import { ADMIN, CURATOR, READER, startEntraStandIn } from "../support/entra_stand_in.ts";
import { makeLoopbackTls } from "../support/loopback_tls.ts";
import {
  govcatArgs,
  LOOPBACK_PERMISSIONS,
  runGovcat,
  spawnPiped,
  waitForListening,
} from "../support/govcat_process.ts";

const SECRET = "server-app-secret-value-0123456789";

type Client = {
  callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
};

function refusalOf(result: unknown): { status: number; message: string; hint: string } {
  const { isError, content } = result as { isError?: boolean; content: Array<{ text: string }> };
  assert.equal(isError, true, JSON.stringify(result));
  return JSON.parse(content[0].text);
}

async function grant(admin: Client, collection: string, role: string, principal: string): Promise<void> {
  const result = await admin.callTool({
    name: "set_collection_role",
    arguments: { collection_name: collection, role, principal_id: principal, action: "grant", confirm: true },
  });
  assert.ok(!(result as { isError?: boolean }).isError, JSON.stringify(result));
}

Deno.test("signed-in team: collection roles granted over MCP decide what each user may do, audited", async () => {
  const tls = await makeLoopbackTls();
  const authority = await startEntraStandIn({ tls, clientSecret: SECRET });
  const emulator = await startEmulator({ seed: true, roles: { admins: [ADMIN.oid] } });
  // No test reaches a login host: the authority the server is given is the loopback stand-in.
  assert.match(authority.url, /^https:\/\/127\.0\.0\.1:\d+$/);
  const serve = await startSignedInServe({
    ...authority.env({ CATALOG_MCP_CATALOG_IDENTITY: "user", CATALOG_MCP_ENTRA_CLIENT_SECRET: SECRET }),
    CATALOG_ACCOUNT_NAME: "emulator",
    CATALOG_ENDPOINT: emulator.url,
    CATALOG_UNIFIED_ENDPOINT: emulator.url,
    NODE_EXTRA_CA_CERTS: tls.caFile,
  });
  const sdk = await loadMcpClientSdk();
  const connect = async (token: string) => {
    const client = new sdk.Client({ name: "team-test", version: "1.0.0" });
    await client.connect(
      new sdk.StreamableHTTPClientTransport(new URL(serve.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    return client;
  };
  let stderr = "";
  try {
    assert.match(serve.banner, /sign-in: +Entra ID, tenant .*catalog calls as the signed-in user/);
    const admin = await connect(await authority.token(ADMIN));
    const reader = await connect(await authority.token(READER));
    const curator = await connect(await authority.token(CURATOR));
    const asset = (who: string, collection?: string) => ({
      type_name: "DataSet",
      qualified_name: `team://${who}/${collection ?? "root"}/orders`,
      name: `${who} orders`,
      ...(collection ? { collection_id: collection } : {}),
    });

    const unknown = refusalOf(
      await reader.callTool({ name: "search_entities", arguments: { query: "customer" } }),
    );
    assert.equal(unknown.status, 403, "no role yet: not even a read");
    await grant(admin, "emulator", "data-reader", READER.oid);
    await grant(admin, "emulator", "data-curator", CURATOR.oid);

    const read = await reader.callTool({ name: "search_entities", arguments: { query: "customer" } });
    assert.ok(!read.isError, JSON.stringify(read));
    const refusal = refusalOf(
      await reader.callTool({ name: "create_entity", arguments: asset("reader", "sales") }),
    );
    assert.equal(refusal.status, 403);
    assert.match(
      refusal.message,
      /Rita Reader \(0+-0+-4000-8000-0+a\) may not POST .*data-curator role on collection 'sales'/,
    );
    assert.match(refusal.hint, /refused this for Rita Reader, the signed-in user/);

    const created = await curator.callTool({ name: "create_entity", arguments: asset("curator") });
    assert.ok(!created.isError, JSON.stringify(created));

    await grant(admin, "sales", "data-curator", READER.oid);
    const allowed = await reader.callTool({ name: "create_entity", arguments: asset("reader", "sales") });
    assert.ok(!allowed.isError, JSON.stringify(allowed));
    const notFinance = refusalOf(
      await reader.callTool({ name: "create_entity", arguments: asset("reader", "finance") }),
    );
    assert.equal(notFinance.status, 403, "the grant is on sales only");

    // One exchange per user, whatever the number of calls; each with that user's own assertion.
    assert.deepEqual(
      authority.exchanges.map((e) => `${e.oid} ${e.status}`).sort(),
      [`${ADMIN.oid} 200`, `${READER.oid} 200`, `${CURATOR.oid} 200`].sort(),
    );
    for (const client of [admin, reader, curator]) await client.close();
  } finally {
    stderr = (await serve.stop()).stderr;
    await emulator.close();
    await authority.close();
    await tls.remove();
  }
  const audit = stderr.split("\n").filter((line) => line.startsWith('{"audit"')).map((line) =>
    JSON.parse(line)
  );
  const summary = audit.map((a) => `${a.user.name} ${a.tool} ${a.outcome}${a.status ? ` ${a.status}` : ""}`);
  assert.deepEqual(summary, [
    "Rita Reader search_entities error 403",
    "Ada Admin set_collection_role ok",
    "Ada Admin set_collection_role ok",
    "Rita Reader search_entities ok",
    "Rita Reader create_entity error 403",
    "Carl Curator create_entity ok",
    "Ada Admin set_collection_role ok",
    "Rita Reader create_entity ok",
    "Rita Reader create_entity error 403",
  ]);
  const refused = audit[4];
  assert.equal(refused.error, "AuthorizationError");
  assert.deepEqual(refused.user, { oid: READER.oid, name: "Rita Reader", tid: refused.user.tid });
  assert.deepEqual(audit[5].targets, { qualified_name: "team://curator/root/orders", type_name: "DataSet" });
  // Neither the users' tokens nor the server's secret reach the log.
  assert.ok(!stderr.includes(SECRET));
  assert.ok(!/eyJ[A-Za-z0-9_-]{20,}\./.test(stderr), stderr);
});

Deno.test("signed-in serve: the shared token and sign-in together stop the start with exit 2", async () => {
  const secret = "shared-token-that-must-not-be-printed-0123456789";
  const result = await runGovcat(["serve", "--transport=http", "--port=0"], {
    CATALOG_ACCOUNT_NAME: "contoso",
    CATALOG_MCP_ENTRA_TENANT_ID: "11111111-2222-4333-8444-555555555555",
    CATALOG_MCP_ENTRA_CLIENT_ID: "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee",
    CATALOG_MCP_AUTH_TOKEN: secret,
  });
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /CATALOG_MCP_AUTH_TOKEN and CATALOG_MCP_ENTRA_TENANT_ID are both set/);
  assert.ok(!result.stderr.includes(secret) && !result.stdout.includes(secret));
});

/**
 * `govcat serve --transport=http` on loopback only, with sys access: @azure/identity reads the OS release
 * for its user agent (without it MSAL fails with endpoints_resolution_error).
 */
async function startSignedInServe(env: Record<string, string>) {
  const child = spawnPiped(
    govcatArgs(["serve", "--transport=http", "--port=0"], {
      permissions: [...LOOPBACK_PERMISSIONS, "--allow-sys"],
    }),
    { env },
  );
  const server = await waitForListening(child, "serve", {
    listening: / on (http:\/\/\S+)\n[\s\S]*Press Ctrl\+C/,
  });
  return { url: server.url, banner: server.banner, stop: () => server.kill("SIGTERM") };
}
