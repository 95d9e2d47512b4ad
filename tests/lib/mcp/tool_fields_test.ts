/**
 * A tool built from one operation takes the operation's fields as its arguments (tool_fields.ts): each
 * argument maps to a field the registered operation has, with the same JSON type, and a GUID argument is
 * refused by the operation's own GUID check before anything is sent.
 */
import assert from "node:assert/strict";
import { z } from "../../../lib/deps/zod.ts";
import { UsageError } from "../../../lib/core/errors.ts";
import { isGuid } from "../../../lib/core/guid.ts";
import { toolJsonSchema, type ToolServices } from "../../../lib/mcp/tool.ts";
import { toolArguments, toolOnly, toSnake } from "../../../lib/mcp/tool_fields.ts";
import { ALL_TOOLS } from "../../../lib/mcp/tools/mod.ts";
import { deleteRelationshipTool, getRelationshipTool } from "../../../lib/mcp/tools/relationship_tools.ts";
import { createOperationRegistry } from "../../../lib/operations/mod.ts";
import { getRelationship } from "../../../lib/operations/relationship_operations.ts";

type JsonNode = { type?: unknown; description?: string; enum?: unknown[]; items?: JsonNode };

const propertiesOf = (schema: z.ZodType) =>
  (toolJsonSchema(schema, "input").properties ?? {}) as Record<string, JsonNode>;

/** The tools built from one operation, with at least this many (a tool written out again would drop it). */
const TOOLS_FROM_ONE_OPERATION = 20;

Deno.test("every argument a tool takes from its operation is a field of it, of the same JSON type", () => {
  const registry = createOperationRegistry();
  const derived = ALL_TOOLS.filter((tool) => tool.argumentFields);
  assert.ok(derived.length >= TOOLS_FROM_ONE_OPERATION, `${derived.length} tools built from one operation`);
  for (const tool of derived) {
    assert.equal(tool.operations?.length, 1, `${tool.name} runs one operation`);
    const operation = registry.get(tool.operations![0])!;
    const fields = propertiesOf(operation.input);
    const args = propertiesOf(tool.input);
    for (const [argument, field] of tool.argumentFields!) {
      assert.ok(
        Object.hasOwn(fields, field),
        `${tool.name}.${argument}: ${operation.id} has no field ${field}`,
      );
      assert.deepEqual(
        args[argument].type,
        fields[field].type,
        `${tool.name}.${argument} is typed as ${operation.id}'s ${field}`,
      );
      const allowed = fields[field].enum ?? fields[field].items?.enum;
      const offered = args[argument].enum ?? args[argument].items?.enum;
      if (allowed) {
        for (const value of offered ?? []) {
          assert.ok(allowed.includes(value), `${tool.name}.${argument}: ${operation.id} takes no ${value}`);
        }
      }
    }
  }
});

Deno.test("a tool's arguments are its operation's fields in snake_case, unless it says otherwise", () => {
  const derived = toolArguments("probe_relationship", getRelationship);
  assert.deepEqual(Object.keys(derived.input.shape), ["guid", "extended_info"]);
  assert.deepEqual(derived.toOperation({ guid: "g", extended_info: true }), {
    guid: "g",
    extendedInfo: true,
  });
  const described = propertiesOf(derived.input);
  assert.equal(described.extended_info.type, "boolean");

  const renamed = toolArguments("probe_relationship", getRelationship, {
    extendedInfo: { as: "with_ends", description: "Both ends too" },
    guid: "The relationship",
    page: toolOnly(z.number().optional()),
  });
  assert.deepEqual(Object.keys(renamed.input.shape), ["with_ends", "guid", "page"], "named fields first");
  assert.deepEqual(renamed.toOperation({ guid: "g", with_ends: false, page: 2 }), {
    extendedInfo: false,
    guid: "g",
  }, "a tool-only argument is not sent");
  assert.equal(propertiesOf(renamed.input).with_ends.description, "Both ends too");
  assert.deepEqual(Object.keys(toolArguments("p", getRelationship, { extendedInfo: false }).input.shape), [
    "guid",
  ]);
  assert.equal(toSnake("end1Guid"), "end1_guid");
});

Deno.test("naming a field its operation does not have fails the tool's definition", () => {
  assert.throws(
    () => toolArguments("probe_relationship", getRelationship, { extendedInformation: "Both ends" }),
    /probe_relationship: entity\.get-relationship has no field extendedInformation/,
  );
});

/** Services whose catalog must not be reached; what reached it is recorded. */
function unreachableCatalog() {
  const sent: string[] = [];
  const services = {
    operationContext: () => ({
      catalog: () => {
        sent.push("catalog");
        throw new Error("nothing may be sent");
      },
    }),
  } as unknown as ToolServices;
  return { sent, services };
}

Deno.test("a GUID argument taken from an operation refuses a malformed GUID before anything is sent", async () => {
  const valid = "ca7a1000-0000-4000-8000-000000000010";
  assert.ok(isGuid(valid));
  for (const guid of ["not-a-guid", `${valid}x`, "../../types/typedefs", ` ${valid.slice(1)}`]) {
    for (const tool of [getRelationshipTool, deleteRelationshipTool]) {
      const { sent, services } = unreachableCatalog();
      const args = tool.input.parse({ guid, confirm: true });
      const refused = await tool.handler({ services }, args).then(() => undefined, (error) => error);
      assert.ok(refused instanceof UsageError, `${tool.name} ${guid}: ${refused}`);
      assert.match(
        refused.message,
        new RegExp(`^${tool.name}: guid: must be a GUID \\(8-4-4-4-12 .*\\), not ".*"; nothing was sent\\.$`),
      );
      assert.deepEqual(sent, [], `${tool.name} ${guid}: the catalog was not reached`);
    }
  }
  // A well-formed GUID goes on to the catalog.
  const { sent, services } = unreachableCatalog();
  await getRelationshipTool.handler({ services }, getRelationshipTool.input.parse({ guid: valid }))
    .catch(() => undefined);
  assert.deepEqual(sent, ["catalog"]);
});
