import assert from "node:assert/strict";
import { loadInSteps, OPERATION_STEPS, serverLoadSteps } from "../../cli/serve_load_steps.ts";
import { TOOL_MODULES } from "../../lib/mcp/tools/modules.ts";

Deno.test("the load lets the event loop turn between two steps, so input is read meanwhile", async () => {
  const events: string[] = [];
  // Stands in for the input's read: it completes in the event loop, not as a microtask.
  const read = () => setTimeout(() => events.push("read"), 0);
  const steps = [1, 2, 3].map((n) => () => {
    events.push(`step ${n}`);
    if (n < 3) read();
    return Promise.resolve();
  });
  const last = await loadInSteps(steps, () => {
    events.push("last");
    return Promise.resolve("server");
  });
  assert.equal(last, "server");
  assert.deepEqual(events, ["step 1", "read", "step 2", "read", "step 3", "last"]);
});

Deno.test("each operation module lib/operations/mod.ts registers is a step of its own", async () => {
  const source = await Deno.readTextFile(new URL("../../lib/operations/mod.ts", import.meta.url));
  const imported = new Set(
    [...source.matchAll(/^(?:import|export)[^;]*?from "\.\/([a-z_]+\.ts)"/gm)].map((match) => match[1]),
  );
  imported.delete("types.ts");
  assert.deepEqual(Object.keys(OPERATION_STEPS).sort(), [...imported].sort());
});

Deno.test("the steps hold every tool module, and each step loads", async () => {
  const steps = serverLoadSteps();
  for (const loader of Object.values(TOOL_MODULES)) assert.ok(steps.includes(loader));
  for (const step of steps) assert.ok(await step());
});

Deno.test("each step, and the last, waits for calm first", async () => {
  const events: string[] = [];
  const calm = () => (events.push("calm"), Promise.resolve());
  const steps = [1, 2].map((n) => () => (events.push(`step ${n}`), Promise.resolve()));
  await loadInSteps(steps, () => (events.push("last"), Promise.resolve()), calm);
  assert.deepEqual(events, ["calm", "step 1", "calm", "step 2", "calm", "last"]);
});
