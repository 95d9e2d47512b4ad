/**
 * The confirmation rule of destructive operations: one `confirm` input, added by the registry from the
 * annotations, and one check before the operation runs.
 */
import assert from "node:assert/strict";
import { overwritesOnRequest } from "../../../lib/operations/if_exists.ts";
import { z } from "../../../lib/deps/zod.ts";
import { UsageError } from "../../../lib/core/errors.ts";
import {
  type Confirmation,
  confirmDestructive,
  describeAction,
  isYes,
  withConfirmation,
} from "../../../lib/operations/confirmation.ts";
import { inputFields } from "../../../lib/operations/fields.ts";
import { createOperationRegistry } from "../../../lib/operations/mod.ts";
import { OperationRegistry } from "../../../lib/operations/registry.ts";
import { defineOperation, DELETE, type OperationContext, READ } from "../../../lib/operations/types.ts";

Deno.test("every destructive operation of the registry takes confirm, and no other does", () => {
  const registry = createOperationRegistry();
  // A create that overwrites only with --if-exists=update confirms that call (lib/operations/if_exists.ts).
  const wrong = registry.all().filter((op) =>
    inputFields(op.input).some((f) => f.name === "confirm" && f.kind === "boolean") !==
      (op.annotations.destructive || overwritesOnRequest(op.input))
  ).map((op) => op.id);
  assert.deepEqual(wrong, []);
  assert.ok(registry.all().filter((op) => op.annotations.destructive).length > 40);
});

/** A destructive operation that records the inputs it ran with. */
function probe() {
  const runs: Array<Record<string, unknown>> = [];
  const operation = defineOperation({
    id: "entity.delete",
    group: "entity",
    command: "delete",
    summary: "test",
    input: z.object({ guid: z.string() }),
    annotations: DELETE,
    run: (_ctx, input) => {
      runs.push(input);
      return Promise.resolve({ deleted: input.guid });
    },
  });
  const registry = new OperationRegistry().register(operation);
  return { runs, held: registry.get("entity.delete")! };
}

const context = (confirmation?: Confirmation) => ({ confirmation }) as unknown as OperationContext;

Deno.test("without confirm and nobody to ask: refused, naming the option, before the operation runs", async () => {
  const { runs, held } = probe();
  const input = held.input.parse({ guid: "g1" });
  await assert.rejects(
    held.run(context(), input),
    (error: Error) =>
      error instanceof UsageError && error.exitCode === 2 &&
      /^entity delete guid=g1 is destructive: refusing to run it without "confirm": true, .*nothing was sent\.$/
        .test(error.message),
  );
  await assert.rejects(
    held.run(context({ option: "--confirm", noOneToAsk: "there is no terminal to ask on" }), input),
    /without --confirm, as there is no terminal to ask on; nothing was sent/,
  );
  assert.deepEqual(runs, []);
});

Deno.test("confirm: true runs at once, without asking; the operation gets its input without confirm", async () => {
  const { runs, held } = probe();
  const asked: string[] = [];
  const ask = (question: string) => (asked.push(question), Promise.resolve(false));
  assert.deepEqual(
    await held.run(context({ option: "--confirm", ask }), held.input.parse({ guid: "g2", confirm: true })),
    { deleted: "g2" },
  );
  assert.deepEqual(runs, [{ guid: "g2" }]);
  assert.deepEqual(asked, []);
});

Deno.test("where a person can be asked: yes runs, anything else cancels and sends nothing", async () => {
  const { runs, held } = probe();
  const asked: string[] = [];
  const answering =
    (answer: boolean) => (question: string) => (asked.push(question), Promise.resolve(answer));
  await held.run(context({ option: "--confirm", ask: answering(true) }), { guid: "g3" });
  await assert.rejects(
    held.run(context({ option: "--confirm", ask: answering(false) }), { guid: "g4" }),
    /cancelled: entity delete guid=g4 was not run; nothing was sent/,
  );
  assert.deepEqual(runs, [{ guid: "g3" }]);
  assert.match(asked[0], /^entity delete guid=g3 may delete or overwrite data .* Go ahead\? \[y\/N\] $/);
});

Deno.test("an operation registered again keeps one confirmation; one that declares confirm is refused", () => {
  const { held } = probe();
  const again = new OperationRegistry().register(held).get("entity.delete")!;
  assert.equal(again, held);
  assert.throws(
    () =>
      withConfirmation(defineOperation({
        id: "entity.delete",
        group: "entity",
        command: "delete",
        summary: "test",
        input: z.object({ guid: z.string(), confirm: z.boolean() }),
        annotations: DELETE,
        run: () => Promise.resolve(null),
      })),
    /declares "confirm"; the registry adds it/,
  );
  const read = defineOperation({
    id: "entity.get",
    group: "entity",
    command: "get",
    summary: "test",
    input: z.object({ guid: z.string() }),
    annotations: READ,
    run: () => Promise.resolve(null),
  });
  assert.equal(withConfirmation(read), read, "a read is held as it is");
});

Deno.test("confirmDestructive, isYes and describeAction", async () => {
  await confirmDestructive("x", true);
  await assert.rejects(confirmDestructive("x", false), /"confirm": true/);
  await assert.rejects(confirmDestructive("x", undefined), /"confirm": true/, "left out is not confirmed");
  assert.deepEqual(["y", "Y", " yes ", "YES"].map(isYes), [true, true, true, true]);
  assert.deepEqual(["", "n", "no", "yess", null, undefined].map(isYes), [
    false,
    false,
    false,
    false,
    false,
    false,
  ]);
  const { held } = probe();
  assert.equal(describeAction(held, { guid: "a".repeat(70) }), `entity delete guid=${"a".repeat(57)}...`);
});
