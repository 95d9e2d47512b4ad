/**
 * A group's registry (`lib/operations/group_registry.ts`, what a CLI command loads) holds exactly the
 * operations the full registry (`createOperationRegistry`) has in that group, in the same order, with the
 * same confirmation added to destructive ones; an unknown group loads none.
 */
import assert from "node:assert/strict";
import { createGroupRegistry, hasGroupSources } from "../../../lib/operations/group_registry.ts";
import { createOperationRegistry, inputFields, OPERATION_GROUPS } from "../../../lib/operations/mod.ts";

Deno.test("group registry: every group holds the full registry's operations of that group, in order", async () => {
  const full = createOperationRegistry();
  for (const { name } of OPERATION_GROUPS) {
    const expected = full.inGroup(name);
    assert.equal(hasGroupSources(name), expected.length > 0, name);
    const group = await createGroupRegistry(name);
    assert.deepEqual(group.all().map((op) => op.id), expected.map((op) => op.id), name);
    for (const operation of expected) {
      assert.equal(group.find(name, operation.command)?.id, operation.id, `${name} ${operation.command}`);
      assert.deepEqual(
        inputFields(group.get(operation.id)!.input).map((field) => field.name),
        inputFields(operation.input).map((field) => field.name),
        `${operation.id}'s inputs (a destructive one's confirm included)`,
      );
    }
  }
  assert.equal(full.all().length, OPERATION_GROUPS.reduce((sum, g) => sum + full.inGroup(g.name).length, 0));
});

Deno.test("group registry: an unknown group has no sources and loads no operation", async () => {
  assert.equal(hasGroupSources("nonesuch"), false);
  assert.equal((await createGroupRegistry("nonesuch")).all().length, 0);
});
