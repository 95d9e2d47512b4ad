/**
 * A person confirms what a model cannot: a client declaring elicitation is asked (`elicitation/create`)
 * before a destructive call changes anything, shown what will change, and only its accept goes ahead.
 * Real SDK clients over streamable HTTP (in process) and over stdio (a `serve --emulator` subprocess).
 */
import assert from "node:assert/strict";
import {
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  loadMcpClientSdk,
} from "../../../lib/deps/mcp_sdk.ts";
import { describesTool } from "../../../lib/mcp/change_descriptions.ts";
import { declaresFormElicitation } from "../../../lib/mcp/elicitation.ts";
import { ALL_TOOLS } from "../../../lib/mcp/tools/mod.ts";
import { baseEnv, LOOPBACK_PERMISSIONS, MAIN } from "../../support/govcat_process.ts";
import {
  type Harness,
  type HarnessOptions,
  type McpClient,
  resultJson,
  startHarness,
} from "../../support/mcp_harness.ts";
import { createTermRequest, termApprovalWorkflow } from "../../support/workflow_fixtures.ts";

const CUSTOMERS = {
  guid: "ca7a1000-0000-4000-8000-000000000010",
  typeName: "azure_sql_table",
  name: "Customers",
  qualifiedName: "mssql://contoso-sql.database.windows.net/SalesDb/dbo/Customers",
  description: "Customer master data: one row per customer account, with contact details.",
};
const UNKNOWN_GUID = "ca7a1000-0000-4000-8000-00000000dead";

type Asked = ElicitRequest["params"];
type Answer = (params: Asked) => ElicitResult | Promise<ElicitResult>;

/** A client that declares elicitation and answers each question with `answer`, keeping what it was asked. */
function elicitingClient(answer: Answer, asked: Asked[]): NonNullable<HarnessOptions["client"]> {
  return {
    capabilities: { elicitation: {} },
    setUp: (client) =>
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params);
        return await answer(request.params);
      }),
  };
}

const accept: Answer = () => ({ action: "accept", content: {} });
const decline: Answer = () => ({ action: "decline" });
const cancel: Answer = () => ({ action: "cancel" });

async function entityStatus(client: McpClient, guid: string): Promise<string> {
  const read = await client.callTool({ name: "get_entity", arguments: { guid } });
  assert.ok(!read.isError, JSON.stringify(read.content));
  return (read.structuredContent as { entity: { status: string } }).entity.status;
}

async function description(client: McpClient, guid: string): Promise<string> {
  const read = await client.callTool({ name: "get_entity", arguments: { guid } });
  return String((read.structuredContent as { entity: { description?: string } }).entity.description);
}

function assertNamesCustomers(message: string) {
  for (const part of [CUSTOMERS.typeName, `"${CUSTOMERS.name}"`, CUSTOMERS.qualifiedName, CUSTOMERS.guid]) {
    assert.ok(message.includes(part), `the question names ${part}: ${message}`);
  }
}

/** Runs `body` against an in-process HTTP server whose client answers elicitations with `answer`. */
async function withElicitingHarness(
  answer: Answer,
  body: (client: McpClient, asked: Asked[], harness: Harness) => Promise<void>,
  options: HarnessOptions = {},
) {
  const asked: Asked[] = [];
  const h = await startHarness({ ...options, client: elicitingClient(answer, asked) });
  try {
    await body(h.client, asked, h);
  } finally {
    await h.close();
  }
}

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

Deno.test("elicitation over HTTP: update_entity shows each field old → new, and changes only on accept", async () => {
  let answer: Answer = decline;
  await withElicitingHarness((params) => answer(params), async (client, asked) => {
    const update = {
      name: "update_entity",
      arguments: {
        guid: CUSTOMERS.guid,
        attributes: { description: "Retired table", owner: "Dana Whitfield" },
      },
    };
    const declined = await client.callTool(update);
    assert.equal(declined.isError, true);
    const message = asked[0].message;
    assert.ok(
      message.includes(`description: ${JSON.stringify(CUSTOMERS.description)} → "Retired table"`),
      message,
    );
    assert.ok(message.includes(`owner: "Dana Whitfield" (unchanged)`), message);
    assertNamesCustomers(message);
    assert.equal(await description(client, CUSTOMERS.guid), CUSTOMERS.description);
    answer = accept;
    const accepted = await client.callTool(update);
    assert.ok(!accepted.isError, JSON.stringify(accepted.content));
    assert.equal(await description(client, CUSTOMERS.guid), "Retired table");
  });
});

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

Deno.test("elicitation over HTTP: batch_update_entities lists each entity's changes", async () => {
  await withElicitingHarness(decline, async (client, asked) => {
    const call = await client.callTool({
      name: "batch_update_entities",
      arguments: {
        updates: [
          { guid: CUSTOMERS.guid, attributes: { owner: "Sam" } },
          { guid: UNKNOWN_GUID, attributes: { owner: "Sam" } },
        ],
      },
    });
    assert.equal(call.isError, true);
    const message = asked[0].message;
    assert.match(message, /overwrite attributes of 2 entities/);
    assert.ok(message.includes(`owner: "Dana Whitfield" → "Sam"`), message);
    assert.ok(
      message.includes(`GUID ${UNKNOWN_GUID} (no such entity: it will fail, changing nothing)`),
      message,
    );
  });
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

Deno.test("elicitation over HTTP: create_entity overwriting an entity shows old → new", async () => {
  await withElicitingHarness(decline, async (client, asked) => {
    const call = await client.callTool({
      name: "create_entity",
      arguments: {
        type_name: CUSTOMERS.typeName,
        qualified_name: CUSTOMERS.qualifiedName,
        name: "Clients",
        if_exists: "update",
      },
    });
    assert.equal(resultJson(call).error, "UserDeclined");
    assertNamesCustomers(asked[0].message);
    assert.ok(asked[0].message.includes(`name: "Customers" → "Clients"`), asked[0].message);
    // A create that overwrites nothing asks nobody.
    const fresh = await client.callTool({
      name: "create_entity",
      arguments: { type_name: "DataSet", qualified_name: "elicitation://fresh", name: "Fresh" },
    });
    assert.ok(!fresh.isError, JSON.stringify(fresh.content));
    assert.equal(asked.length, 1);
  });
});

Deno.test("elicitation over HTTP: decide_approval shows the request and decides only on accept", async () => {
  let answer: Answer = decline;
  await withElicitingHarness((params) => answer(params), async (client, asked, h) => {
    const glossary = (await h.catalog.glossary.create({ name: "Glossary for Margin" })).guid!;
    await h.catalog.workflow.putWorkflow(
      "4afb5752-e47f-43a1-8ba7-c696bf8d2745",
      termApprovalWorkflow(glossary),
    );
    await h.catalog.workflow.submitUserRequest(createTermRequest(glossary, "Margin"));
    const listed = await client.callTool({ name: "list_my_approvals", arguments: {} });
    const taskId =
      (listed.structuredContent as { approvals: Array<{ task_id: string }> }).approvals[0].task_id;
    const decide = {
      name: "decide_approval",
      arguments: { task_id: taskId, decision: "approve", confirm: true },
    };
    const declined = await client.callTool(decide);
    assert.equal(resultJson(declined).error, "UserDeclined");
    assert.match(asked[0].message, /^decide_approval: approve task .*CreateTerm "Margin"/);
    assert.deepEqual((await h.catalog.glossary.listTerms(glossary)).map((t) => t.name), []);
    answer = accept;
    const approved = await client.callTool(decide);
    assert.ok(!approved.isError, JSON.stringify(approved.content));
    assert.deepEqual((await h.catalog.glossary.listTerms(glossary)).map((t) => t.name), ["Margin"]);
  });
});

Deno.test("elicitation over HTTP: invoke_operation asks before an operation overwrites", async () => {
  await withElicitingHarness(decline, async (client, asked) => {
    const entities = [{
      typeName: CUSTOMERS.typeName,
      qualifiedName: CUSTOMERS.qualifiedName,
      name: "Clients",
    }];
    const call = await client.callTool({
      name: "invoke_operation",
      arguments: {
        operation: "entity.create-many",
        arguments: { entities, ifExists: "update", confirm: true },
      },
    });
    assert.equal(resultJson(call).error, "UserDeclined");
    assert.match(asked[0].message, /entity create-many .*what exists already is overwritten/);
    const read = await client.callTool({ name: "get_entity", arguments: { guid: CUSTOMERS.guid } });
    assert.equal((read.structuredContent as { entity: { name: string } }).entity.name, "Customers");
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

Deno.test("hosted mode cannot ask: a client declaring elicitation keeps the confirm rule", async () => {
  await withElicitingHarness(accept, async (client, asked) => {
    const refused = await client.callTool({ name: "delete_entity", arguments: { guid: CUSTOMERS.guid } });
    assert.equal(refused.isError, true);
    assert.match(String(resultJson(refused).message), /without "confirm": true/);
    assert.equal(asked.length, 0);
  }, { mode: "hosted" });
});

Deno.test("every destructive tool says specifically what it will change", () => {
  // invoke_operation describes the operation it runs; decide_approval asks with the request it reads.
  const asksItself = new Set(["invoke_operation", "decide_approval"]);
  const missing = ALL_TOOLS.filter((tool) =>
    tool.annotations.destructiveHint && !asksItself.has(tool.name) && !describesTool(tool.name)
  ).map((tool) => tool.name);
  assert.deepEqual(missing, []);
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
