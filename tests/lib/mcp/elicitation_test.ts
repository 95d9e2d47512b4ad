/**
 * A person confirms what a model cannot: a client declaring elicitation is asked (`elicitation/create`)
 * before a destructive call changes anything, and only its accept goes ahead; decline, cancel, an error or
 * no answer in time change nothing; without elicitation (or hosted) the confirm rule stays. Real SDK
 * clients over streamable HTTP and legacy SSE (in process) and over stdio (a `serve --emulator`
 * subprocess). What the question says is in change_descriptions_test.ts.
 */
import assert from "node:assert/strict";
import { ElicitRequestSchema, loadMcpClientSdk } from "../../../lib/deps/mcp_sdk.ts";
import { declaresFormElicitation } from "../../../lib/mcp/elicitation.ts";
import {
  accept,
  type Answer,
  type Asked,
  assertNamesCustomers,
  cancel,
  CUSTOMERS,
  decline,
  elicitingClient,
  entityStatus,
  UNKNOWN_GUID,
  withElicitingHarness,
} from "../../support/eliciting_client.ts";
import { baseEnv, LOOPBACK_PERMISSIONS, MAIN } from "../../support/govcat_process.ts";
import { resultJson, startHarness } from "../../support/mcp_harness.ts";

Deno.test("elicitation over HTTP: delete_entity names the entity and deletes it only on accept", async () => {
  await withElicitingHarness(accept, async (client, asked) => {
    const deleted = await client.callTool({ name: "delete_entity", arguments: { guid: CUSTOMERS.guid } });
    assert.ok(!deleted.isError, JSON.stringify(deleted.content));
    assert.equal(asked.length, 1, "the user is asked once");
    assertNamesCustomers(asked[0].message);
    assert.match(asked[0].message, /^delete_entity: delete /);
    assert.deepEqual("requestedSchema" in asked[0] && asked[0].requestedSchema, {
      type: "object",
      properties: {},
    });
    assert.deepEqual((deleted.structuredContent as { deleted: string[] }).deleted, [CUSTOMERS.guid]);
    assert.equal(await entityStatus(client, CUSTOMERS.guid), "DELETED");
  });
});

for (
  const [action, answer, error, words] of [
    ["decline", decline, "UserDeclined", /the user declined; nothing was changed/],
    ["cancel", cancel, "UserCancelled", /the user cancelled the confirmation; nothing was changed/],
  ] as const
) {
  Deno.test(`elicitation over HTTP: ${action} ends delete_entity with a clear error, nothing deleted`, async () => {
    await withElicitingHarness(answer, async (client, asked) => {
      // The model's own "confirm": true does not stand in for the user.
      const call = await client.callTool({
        name: "delete_entity",
        arguments: { guid: CUSTOMERS.guid, confirm: true },
      });
      assert.equal(call.isError, true);
      const body = resultJson(call);
      assert.equal(body.error, error);
      assert.match(String(body.message), words);
      assert.equal(asked.length, 1, "asked although the model said confirm: true");
      assert.equal(await entityStatus(client, CUSTOMERS.guid), "ACTIVE");
    });
  });
}

Deno.test("elicitation over HTTP: the question travels on the call's own stream", async () => {
  // A client that opens no standalone GET stream hears the question only on its tools/call's stream.
  const noGetStream: typeof fetch = (input, init) =>
    (init?.method ?? "GET") === "GET"
      ? Promise.resolve(new Response(null, { status: 405 }))
      : fetch(input, init);
  await withElicitingHarness(decline, async (client, asked) => {
    const call = await client.callTool({ name: "delete_entity", arguments: { guid: CUSTOMERS.guid } });
    assert.equal(resultJson(call).error, "UserDeclined");
    assert.equal(asked.length, 1);
  }, { fetch: noGetStream, env: { CATALOG_MCP_CONFIRM_TIMEOUT_MS: "3000" } });
});

Deno.test("elicitation over legacy SSE: the user is asked too", async () => {
  await withElicitingHarness(decline, async (client, asked) => {
    const call = await client.callTool({ name: "delete_entity", arguments: { guid: CUSTOMERS.guid } });
    assert.equal(resultJson(call).error, "UserDeclined");
    assertNamesCustomers(asked[0].message);
    assert.equal(await entityStatus(client, CUSTOMERS.guid), "ACTIVE");
  }, { mode: "sse" });
});

Deno.test("elicitation over HTTP: invoke_operation asks before a destructive operation", async () => {
  let answer: Answer = decline;
  await withElicitingHarness((params) => answer(params), async (client, asked) => {
    const invoke = {
      name: "invoke_operation",
      arguments: { operation: "entity.delete", arguments: { guid: CUSTOMERS.guid, confirm: true } },
    };
    const declined = await client.callTool(invoke);
    assert.equal(declined.isError, true);
    assert.equal(resultJson(declined).error, "UserDeclined");
    assertNamesCustomers(asked[0].message);
    assert.equal(await entityStatus(client, CUSTOMERS.guid), "ACTIVE");
    // A read asks nobody.
    await client.callTool({
      name: "invoke_operation",
      arguments: { operation: "entity.get", arguments: { guid: CUSTOMERS.guid } },
    });
    assert.equal(asked.length, 1);
    answer = accept;
    const accepted = await client.callTool({
      name: "invoke_operation",
      arguments: { operation: "entity.delete", arguments: { guid: CUSTOMERS.guid } },
    });
    assert.ok(!accepted.isError, JSON.stringify(accepted.content));
    assert.equal(await entityStatus(client, CUSTOMERS.guid), "DELETED");
  });
});

Deno.test("elicitation over HTTP: an unknown GUID is the usual not-found error, nobody asked", async () => {
  await withElicitingHarness(accept, async (client, asked) => {
    const call = await client.callTool({ name: "delete_entity", arguments: { guid: UNKNOWN_GUID } });
    assert.equal(call.isError, true);
    assert.equal(resultJson(call).status, 404);
    assert.equal(asked.length, 0);
  });
});

Deno.test("elicitation over HTTP: a client that fails to answer ends the call, nothing changed", async () => {
  const failing: Answer = () => {
    throw new Error("the dialog could not be shown");
  };
  await withElicitingHarness(failing, async (client) => {
    const call = await client.callTool({ name: "delete_entity", arguments: { guid: CUSTOMERS.guid } });
    assert.equal(call.isError, true);
    const body = resultJson(call);
    assert.equal(body.error, "ConfirmationFailed");
    assert.match(
      String(body.message),
      /could not be asked to confirm .*the dialog could not be shown.*nothing was changed/,
    );
    assert.equal(await entityStatus(client, CUSTOMERS.guid), "ACTIVE");
  });
});

Deno.test("elicitation over HTTP: no answer within CATALOG_MCP_CONFIRM_TIMEOUT_MS ends the call", async () => {
  const slow: Answer = () => new Promise((resolve) => setTimeout(() => resolve({ action: "accept" }), 2_500));
  await withElicitingHarness(slow, async (client) => {
    const call = await client.callTool({ name: "delete_entity", arguments: { guid: CUSTOMERS.guid } });
    assert.equal(call.isError, true);
    assert.equal(resultJson(call).error, "ConfirmationFailed");
    assert.match(String(resultJson(call).message), /no answer in time/);
    await new Promise((resolve) => setTimeout(resolve, 2_600)); // the late accept arrives, and is ignored
    assert.equal(await entityStatus(client, CUSTOMERS.guid), "ACTIVE");
  }, { env: { CATALOG_MCP_CONFIRM_TIMEOUT_MS: "1000" } });
});

Deno.test("without elicitation the confirm rule stays: refused unless confirm: true", async () => {
  const h = await startHarness();
  try {
    const refused = await h.client.callTool({ name: "delete_entity", arguments: { guid: CUSTOMERS.guid } });
    assert.equal(refused.isError, true);
    assert.match(String(resultJson(refused).message), /without "confirm": true/);
    assert.equal(await entityStatus(h.client, CUSTOMERS.guid), "ACTIVE");
    const confirmed = await h.client.callTool({
      name: "delete_entity",
      arguments: { guid: CUSTOMERS.guid, confirm: true },
    });
    assert.ok(!confirmed.isError, JSON.stringify(confirmed.content));
  } finally {
    await h.close();
  }
});

Deno.test("form elicitation is what counts: {} and {form} are asked, url alone keeps the confirm rule", async () => {
  assert.equal(declaresFormElicitation({ elicitation: {} }), true);
  assert.equal(declaresFormElicitation({ elicitation: { form: {} } }), true);
  assert.equal(declaresFormElicitation({ elicitation: { form: {}, url: {} } }), true);
  assert.equal(declaresFormElicitation({ elicitation: { url: {} } }), false);
  assert.equal(declaresFormElicitation({ roots: {} }), false);
  assert.equal(declaresFormElicitation(undefined), false);
  const asked: Asked[] = [];
  const formClient = { ...elicitingClient(decline, asked), capabilities: { elicitation: { form: {} } } };
  const form = await startHarness({ client: formClient });
  try {
    const call = await form.client.callTool({ name: "delete_entity", arguments: { guid: CUSTOMERS.guid } });
    assert.equal(resultJson(call).error, "UserDeclined");
    assert.equal(asked.length, 1);
  } finally {
    await form.close();
  }
  const urlOnly = await startHarness({ client: { capabilities: { elicitation: { url: {} } } } });
  try {
    const call = await urlOnly.client.callTool({
      name: "delete_entity",
      arguments: { guid: CUSTOMERS.guid },
    });
    assert.match(String(resultJson(call).message), /without "confirm": true/);
  } finally {
    await urlOnly.close();
  }
});

Deno.test("read-only mode refuses destructive calls before anyone is asked", async () => {
  await withElicitingHarness(accept, async (client, asked) => {
    const tool = await client.callTool({ name: "delete_entity", arguments: { guid: CUSTOMERS.guid } });
    assert.equal(tool.isError, true);
    const invoked = await client.callTool({
      name: "invoke_operation",
      arguments: { operation: "entity.delete", arguments: { guid: CUSTOMERS.guid } },
    });
    assert.equal(invoked.isError, true);
    assert.match(String(resultJson(invoked).message), /read-only/i);
    assert.equal(asked.length, 0);
    assert.equal(await entityStatus(client, CUSTOMERS.guid), "ACTIVE");
  }, { env: { CATALOG_MCP_READ_ONLY: "true" } });
});

Deno.test("hosted mode cannot ask: a client declaring elicitation keeps the confirm rule", async () => {
  await withElicitingHarness(accept, async (client, asked) => {
    const refused = await client.callTool({ name: "delete_entity", arguments: { guid: CUSTOMERS.guid } });
    assert.equal(refused.isError, true);
    assert.match(String(resultJson(refused).message), /without "confirm": true/);
    assert.equal(asked.length, 0);
  }, { mode: "hosted" });
});

Deno.test("elicitation over stdio: decline and cancel change nothing, accept deletes", async () => {
  const { Client, StdioClientTransport } = await loadMcpClientSdk();
  const answers: Answer[] = [decline, cancel, accept];
  const asked: Asked[] = [];
  const client = new Client({ name: "stdio-elicitation", version: "1.0.0" }, {
    capabilities: { elicitation: {} },
  });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params);
    return answers[asked.length - 1](request.params);
  });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", ...LOOPBACK_PERMISSIONS, MAIN, "serve", "--emulator"],
      env: baseEnv(),
      stderr: "pipe",
    }),
  );
  try {
    const del = { name: "delete_entity", arguments: { guid: CUSTOMERS.guid } };
    const declined = await client.callTool(del);
    assert.equal(resultJson(declined).error, "UserDeclined");
    assert.equal(await entityStatus(client, CUSTOMERS.guid), "ACTIVE");
    const cancelled = await client.callTool(del);
    assert.equal(resultJson(cancelled).error, "UserCancelled");
    assert.equal(await entityStatus(client, CUSTOMERS.guid), "ACTIVE");
    const accepted = await client.callTool(del);
    assert.ok(!accepted.isError, JSON.stringify(accepted.content));
    assert.equal(await entityStatus(client, CUSTOMERS.guid), "DELETED");
    assert.equal(asked.length, 3);
    for (const question of asked) assertNamesCustomers(question.message);
  } finally {
    await client.close();
  }
});
