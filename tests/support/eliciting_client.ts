/**
 * An SDK client that declares elicitation (MCP 2025-06-18) and answers each `elicitation/create` as a test
 * says, against the in-process HTTP server of `mcp_harness.ts`; and the seeded entity the questions name.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type ElicitRequest, ElicitRequestSchema, type ElicitResult } from "../../lib/deps/mcp_sdk.ts";
import { type Harness, type HarnessOptions, type McpClient, startHarness } from "./mcp_harness.ts";

export const CUSTOMERS = {
  guid: "ca7a1000-0000-4000-8000-000000000010",
  typeName: "azure_sql_table",
  name: "Customers",
  qualifiedName: "mssql://contoso-sql.database.windows.net/SalesDb/dbo/Customers",
  description: "Customer master data: one row per customer account, with contact details.",
};
export const UNKNOWN_GUID = "ca7a1000-0000-4000-8000-00000000dead";

export type Asked = ElicitRequest["params"];
export type Answer = (params: Asked) => ElicitResult | Promise<ElicitResult>;

/** A client that declares elicitation and answers each question with `answer`, keeping what it was asked. */
export function elicitingClient(answer: Answer, asked: Asked[]): NonNullable<HarnessOptions["client"]> {
  return {
    capabilities: { elicitation: {} },
    setUp: (client) =>
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params);
        return await answer(request.params);
      }),
  };
}

export const accept: Answer = () => ({ action: "accept", content: {} });
export const decline: Answer = () => ({ action: "decline" });
export const cancel: Answer = () => ({ action: "cancel" });

/** The entity's status (ACTIVE, DELETED), read back through get_entity. */
export async function entityStatus(client: McpClient, guid: string): Promise<string> {
  const read = await client.callTool({ name: "get_entity", arguments: { guid } });
  assert.ok(!read.isError, JSON.stringify(read.content));
  return (read.structuredContent as { entity: { status: string } }).entity.status;
}

/** The entity's description, read back through get_entity. */
export async function description(client: McpClient, guid: string): Promise<string> {
  const read = await client.callTool({ name: "get_entity", arguments: { guid } });
  return String((read.structuredContent as { entity: { description?: string } }).entity.description);
}

/** The question names the seeded Customers table by type, name, qualified name and GUID. */
export function assertNamesCustomers(message: string) {
  for (const part of [CUSTOMERS.typeName, `"${CUSTOMERS.name}"`, CUSTOMERS.qualifiedName, CUSTOMERS.guid]) {
    assert.ok(message.includes(part), `the question names ${part}: ${message}`);
  }
}

/** Runs `body` against an in-process HTTP server whose client answers elicitations with `answer`. */
export async function withElicitingHarness(
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
