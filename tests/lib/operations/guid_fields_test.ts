/**
 * GUID options: one pattern, and every option of the registry that names a GUID uses it.
 */
import assert from "node:assert/strict";
import { z } from "../../../lib/deps/zod.ts";
import { inputJsonSchema } from "../../../lib/operations/fields.ts";
import { guidField, guidListField } from "../../../lib/operations/guid_fields.ts";
import { GUID_PATTERN, isGuid } from "../../../lib/core/guid.ts";
import { createOperationRegistry } from "../../../lib/operations/mod.ts";

Deno.test("guidField: 8-4-4-4-12 hex digits in either case, trimmed; anything else is refused with the form", () => {
  const schema = z.object({ guid: guidField("GUID of the entity"), more: guidListField("GUID").optional() });
  assert.equal(
    schema.parse({ guid: " CA7A1000-0000-4000-8000-00000000000a " }).guid,
    "CA7A1000-0000-4000-8000-00000000000a",
  );
  for (
    const bad of [
      "",
      "not-a-guid",
      "-1",
      "..",
      "ca7a1000000040008000000000000001",
      "{ca7a1000-0000-4000-8000-000000000001}",
      "ca7a1000-0000-4000-8000-00000000000g",
    ]
  ) {
    const result = schema.safeParse({ guid: bad });
    assert.equal(result.success, false, bad);
    assert.match(
      result.error!.issues[0].message,
      /^must be a GUID \(8-4-4-4-12 hexadecimal digits, e\.g\. [0-9a-f-]{36}\), not ".*"$/,
    );
  }
  const list = schema.safeParse({ guid: "ca7a1000-0000-4000-8000-000000000001", more: ["x"] });
  assert.deepEqual(list.error?.issues[0].path, ["more", 0]);
  assert.ok(isGuid("ca7a1000-0000-4000-8000-000000000001") && !isGuid("x") && !isGuid(1));
  // The JSON Schema the MCP tools publish means the same: no regex flags there.
  const json = inputJsonSchema(schema) as { properties: { guid: { pattern: string } } };
  assert.equal(json.properties.guid.pattern, GUID_PATTERN.source);
  assert.equal(GUID_PATTERN.flags, "");
});

/** Options that name GUIDs but take them separated by commas too, checked by their operation. */
const COMMA_LISTS = new Set([
  "lineage_csv.generate_sample entityGuids",
  "glossary.unassign-term entityGuids",
]);

Deno.test("every option of the registry that names a GUID, and every unified catalog id, takes only GUIDs", () => {
  const registry = createOperationRegistry();
  const unchecked: string[] = [];
  let checked = 0;
  for (const op of registry.all()) {
    const properties = (inputJsonSchema(op.input).properties ?? {}) as Record<
      string,
      { pattern?: string; items?: { pattern?: string } }
    >;
    for (const [name, node] of Object.entries(properties)) {
      const namesGuid = /^guid$|Guids?$/.test(name);
      // Unified catalog ids (--term-id, --domain-id, --parent-id, --synonym, ...); owners are Entra object
      // IDs, checked by the client with their own message (not an e-mail address).
      const ucId = op.group === "uc" && /^(\w+Id|synonym|related)$/.test(name) && name !== "ownerId";
      if (!namesGuid && !ucId) continue;
      if (COMMA_LISTS.has(`${op.id} ${name}`)) continue;
      if ((node.pattern ?? node.items?.pattern) === GUID_PATTERN.source) checked++;
      else unchecked.push(`${op.id} ${name}`);
    }
  }
  assert.deepEqual(unchecked, []);
  assert.ok(checked > 80, `${checked} GUID options`);
});
