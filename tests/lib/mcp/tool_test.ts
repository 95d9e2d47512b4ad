/**
 * defineTool's confirmation rule for destructive tools, called directly: a call runs only with
 * `"confirm": true` (anything else, the argument left out included, is refused before the handler runs),
 * and only the calls `confirmWhen` picks need it.
 */
import assert from "node:assert/strict";
import { z } from "../../../lib/deps/zod.ts";
import { UsageError } from "../../../lib/core/errors.ts";
import { defineTool, type ToolContext } from "../../../lib/mcp/tool.ts";

function probeTool(confirmWhen?: (input: { guid: string; dryRun?: boolean }) => boolean) {
  const runs: Array<{ input: unknown; confirmed: boolean | undefined }> = [];
  const tool = defineTool({
    name: "delete_probe",
    title: "Delete a probe",
    description: "test",
    input: z.object({ guid: z.string(), dryRun: z.boolean().optional() }),
    output: z.object({ deleted: z.string() }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    confirmWhen,
    handler: (context, input) => {
      runs.push({ input, confirmed: context.confirmed });
      return Promise.resolve({ deleted: input.guid });
    },
  });
  return { tool, runs };
}

const context = {} as ToolContext;

Deno.test("a destructive tool refuses a call whose confirm is left out or false, before its handler runs", async () => {
  const { tool, runs } = probeTool();
  for (const args of [{ guid: "g1" }, { guid: "g1", confirm: undefined }, { guid: "g1", confirm: false }]) {
    await assert.rejects(
      tool.handler(context, tool.input.parse(args)),
      (error: Error) =>
        error instanceof UsageError &&
        /^delete_probe guid=g1 is destructive: refusing to run it without "confirm": true/.test(
          error.message,
        ) &&
        /call delete_probe again with "confirm": true/.test(error.hint ?? ""),
      JSON.stringify(args),
    );
  }
  assert.deepEqual(runs, []);
  assert.deepEqual(await tool.handler(context, tool.input.parse({ guid: "g2", confirm: true })), {
    deleted: "g2",
  });
  assert.deepEqual(
    runs,
    [{ input: { guid: "g2" }, confirmed: true }],
    "the handler gets its input without confirm",
  );
});

Deno.test("confirmWhen: only the calls it picks need confirm; the others run as they are", async () => {
  const { tool, runs } = probeTool((input) => input.dryRun !== true);
  assert.deepEqual(await tool.handler(context, tool.input.parse({ guid: "g3", dryRun: true })), {
    deleted: "g3",
  });
  await assert.rejects(tool.handler(context, tool.input.parse({ guid: "g4" })), /without "confirm": true/);
  assert.deepEqual(runs, [{ input: { guid: "g3", dryRun: true }, confirmed: false }]);
});
