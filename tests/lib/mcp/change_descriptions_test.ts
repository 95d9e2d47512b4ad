/**
 * What a person is shown before a destructive call (`change_descriptions.ts`), through a real SDK client
 * declaring elicitation over streamable HTTP: an overwrite lists each field old → new, a batch each
 * entity, an approval its request; and every destructive tool has a description of its own.
 */
import assert from "node:assert/strict";
import { describesTool } from "../../../lib/mcp/change_descriptions.ts";
import { ALL_TOOLS } from "../../../lib/mcp/tools/mod.ts";
import {
  accept,
  type Answer,
  assertNamesCustomers,
  CUSTOMERS,
  decline,
  description,
  UNKNOWN_GUID,
  withElicitingHarness,
} from "../../support/eliciting_client.ts";
import { resultJson } from "../../support/mcp_harness.ts";
import { createTermRequest, termApprovalWorkflow } from "../../support/workflow_fixtures.ts";

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

Deno.test("every destructive tool says specifically what it will change", () => {
  // invoke_operation describes the operation it runs; decide_approval asks with the request it reads.
  const asksItself = new Set(["invoke_operation", "decide_approval"]);
  const missing = ALL_TOOLS.filter((tool) =>
    tool.annotations.destructiveHint && !asksItself.has(tool.name) && !describesTool(tool.name)
  ).map((tool) => tool.name);
  assert.deepEqual(missing, []);
});

Deno.test("invoke_operation: a glossary delete names the term and its glossary, the glossary its contents", async () => {
  await withElicitingHarness(decline, async (client, asked, h) => {
    const glossary = await h.catalog.glossary.create({ name: "Finance" });
    const term = await h.catalog.glossary.createTerm({
      name: "Net margin",
      anchor: { glossaryGuid: glossary.guid },
    });
    const invoke = (operation: string, args: Record<string, unknown>) =>
      client.callTool({ name: "invoke_operation", arguments: { operation, arguments: args } });
    assert.equal(
      resultJson(await invoke("glossary.delete-term", { termGuid: term.guid })).error,
      "UserDeclined",
    );
    assert.ok(
      asked[0].message.includes(`delete glossary term "Net margin" of glossary "Finance"`) &&
        asked[0].message.includes(`GUID ${term.guid}`),
      asked[0].message,
    );
    await invoke("glossary.delete", { glossaryGuid: glossary.guid });
    assert.match(
      asked[1].message,
      /delete glossary "Finance" \(GUID [^)]+\) with its 1 term and 0 categories/,
    );
    assert.equal((await h.catalog.glossary.listTerms(glossary.guid!)).length, 1, "nothing deleted");
  });
});

Deno.test("delete_collection and entity.delete-many name what they delete", async () => {
  await withElicitingHarness(decline, async (client, asked, h) => {
    await h.catalog.collections.createOrUpdate("camp01", {
      friendlyName: "Campaigns",
      parentCollection: { referenceName: "emulator" },
    });
    await client.callTool({ name: "delete_collection", arguments: { collection_name: "camp01" } });
    assert.match(asked[0].message, /delete collection camp01 \("Campaigns"\), a child of emulator\./);
    await client.callTool({
      name: "invoke_operation",
      arguments: { operation: "entity.delete-many", arguments: { guid: [CUSTOMERS.guid, UNKNOWN_GUID] } },
    });
    assert.match(asked[1].message, /delete 2 entities:/);
    assertNamesCustomers(asked[1].message);
    assert.ok(asked[1].message.includes(`GUID ${UNKNOWN_GUID} (no such entity)`), asked[1].message);
  });
});
