/**
 * Hosted mode with Entra ID sign-in: a hosted session is the signed-in user's and the id together. Another
 * user who learns the id (and the call's JSON-RPC id) can neither cancel the call nor end the session; the
 * owner can. Runs against a real hosted app on 127.0.0.1 with the loopback stand-in authority.
 */
import assert from "node:assert/strict";
import { loadMcpClientSdk } from "../../../../lib/deps/mcp_sdk.ts";
import { HOSTED_METADATA_PATH } from "../../../../lib/mcp/auth/sign_in.ts";
import { CURATOR, READER } from "../../../support/entra_stand_in.ts";
import { startSignedInHarness } from "../../../support/signed_in_harness.ts";
import { ASSET_IMPORT, writeAssetsCsv } from "../../../support/asset_import.ts";

const ROWS = 2_000;

Deno.test("hosted sign-in: another user's cancel or DELETE with the owner's session id stops nothing", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "govcat-hosted-signin-" }));
  await writeAssetsCsv(root, ROWS, "ds://signed/");
  const h = await startSignedInHarness({
    mode: "hosted",
    env: { CATALOG_MCP_FILE_ROOT: root },
    verifier: { metadataPath: HOSTED_METADATA_PATH },
  });
  const sdk = await loadMcpClientSdk();
  const owner = new sdk.Client({ name: "owner", version: "1.0.0" });
  try {
    h.emulator.faults.set({ latencyMs: 100 });
    const ownerToken = await h.authority.token(CURATOR);
    const otherToken = await h.authority.token(READER);
    let sessionId: string | undefined;
    let requestId: string | number | undefined;
    // Learns the session id and the call's id, as a user watching the traffic might.
    const watching: typeof fetch = async (input, init) => {
      if (init?.method === "POST" && String(init.body).includes('"tools/call"')) {
        requestId = JSON.parse(String(init.body)).id;
      }
      const response = await fetch(input, init);
      sessionId ??= response.headers.get("mcp-session-id") ?? undefined;
      return response;
    };
    await owner.connect(
      new sdk.StreamableHTTPClientTransport(new URL(h.mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${ownerToken}` } },
        fetch: watching,
      }),
    );
    const call = owner.callTool(
      ASSET_IMPORT,
      undefined,
      { timeout: 60_000 },
    ).catch((error) => error);
    const deadline = Date.now() + 20_000;
    while (h.app.runningHostedCalls === 0 || requestId === undefined) {
      assert.ok(Date.now() < deadline, "the call started");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.ok(sessionId, "initialize handed out a session id");
    const send = (token: string, method: string, body?: unknown) =>
      fetch(h.mcpUrl, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          "mcp-session-id": sessionId!,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId } };

    for (const answer of [await send(otherToken, "POST", cancel), await send(otherToken, "DELETE")]) {
      await answer.body?.cancel();
      assert.ok(
        answer.status < 300,
        `the other user's request is accepted (${answer.status}), and reaches nothing`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(h.app.runningHostedCalls, 1, "the owner's call still runs");

    const own = await send(ownerToken, "POST", cancel);
    await own.body?.cancel();
    while (h.app.runningHostedCalls > 0) {
      assert.ok(Date.now() < deadline + 10_000, "the owner's cancellation stopped the call");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // The stopped call's stream ended without a result; closing the client settles it.
    void call;
  } finally {
    await owner.close();
    await h.close();
    await Deno.remove(root, { recursive: true });
  }
});
