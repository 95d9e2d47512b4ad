/**
 * Who did what: one audit record per tool call of a signed-in session, naming the user and the targets but
 * no other argument value, on the server's audit output and, for a client that set a log level, as an MCP
 * log notification.
 */
import assert from "node:assert/strict";
import { CURATOR, READER } from "../../../support/entra_stand_in.ts";
import { startSignedInHarness } from "../../../support/signed_in_harness.ts";

Deno.test("audit: each call names the user, the tool, the targets and the outcome, never other values", async () => {
  const h = await startSignedInHarness();
  try {
    const reader = await h.connect(await h.authority.token(READER));
    const curator = await h.connect(await h.authority.token(CURATOR));
    const secretish = "do-not-log-this-description-4711";
    const created = await curator.callTool({
      name: "create_entity",
      arguments: { type_name: "DataSet", qualified_name: "audit://one", name: "one", description: secretish },
    });
    assert.ok(!created.isError, JSON.stringify(created));
    const missing = await reader.callTool({
      name: "get_entity",
      arguments: { guid: "00000000-0000-0000-0000-00000000dead" },
    });
    assert.equal(missing.isError, true);
    assert.deepEqual(
      h.audit.map((a) => {
        const { time, ...rest } = a;
        assert.ok(!Number.isNaN(Date.parse(String(time))));
        return rest;
      }),
      [
        {
          audit: "tool_call",
          user: { oid: CURATOR.oid, name: CURATOR.name, tid: (h.audit[0].user as { tid: string }).tid },
          tool: "create_entity",
          targets: { type_name: "DataSet", qualified_name: "audit://one" },
          outcome: "ok",
        },
        {
          audit: "tool_call",
          user: { oid: READER.oid, name: READER.name, tid: (h.audit[0].user as { tid: string }).tid },
          tool: "get_entity",
          targets: { guid: "00000000-0000-0000-0000-00000000dead" },
          outcome: "error",
          status: 404,
          error: "NotFoundError",
        },
      ],
    );
    assert.ok(!JSON.stringify(h.audit).includes(secretish));
  } finally {
    await h.close();
  }
});

Deno.test("audit: a client that set a log level hears its own calls' records; one that did not, none", async () => {
  const h = await startSignedInHarness();
  try {
    const listening = await h.connect(await h.authority.token(READER));
    const quiet = await h.connect(await h.authority.token(CURATOR));
    const heard: string[] = [];
    const unheard: string[] = [];
    listening.fallbackNotificationHandler = (n) => {
      if (n.method === "notifications/message") heard.push(String((n.params as { data: unknown }).data));
      return Promise.resolve();
    };
    quiet.fallbackNotificationHandler = (n) => {
      if (n.method === "notifications/message") unheard.push(String((n.params as { data: unknown }).data));
      return Promise.resolve();
    };
    await listening.setLoggingLevel("info");
    await listening.callTool({ name: "search_entities", arguments: { query: "customer" } });
    await quiet.callTool({ name: "search_entities", arguments: { query: "customer" } });
    const records = heard.filter((line) => line.startsWith('{"audit"')).map((line) => JSON.parse(line));
    assert.deepEqual(records.map((r) => `${r.user.name} ${r.tool} ${r.outcome}`), [
      "Rita Reader search_entities ok",
    ]);
    assert.deepEqual(unheard.filter((line) => line.includes('"audit"')), []);
  } finally {
    await h.close();
  }
});

Deno.test("audit: a call refused before it runs is audited too, still without other values", async () => {
  const h = await startSignedInHarness();
  try {
    const reader = await h.connect(await h.authority.token(READER));
    const refused = await reader.callTool({
      name: "get_entity",
      arguments: { guid: "00000000-0000-0000-0000-0000000000aa", password: "hunter2-do-not-log" },
    });
    assert.equal(refused.isError, true);
    assert.equal(h.audit.length, 1);
    assert.deepEqual(
      { ...h.audit[0], time: undefined, user: undefined },
      {
        audit: "tool_call",
        time: undefined,
        user: undefined,
        tool: "get_entity",
        targets: { guid: "00000000-0000-0000-0000-0000000000aa" },
        outcome: "error",
        error: "InvalidArguments",
      },
    );
    assert.ok(!JSON.stringify(h.audit).includes("hunter2"));
  } finally {
    await h.close();
  }
});
