/**
 * What tools/list costs every session in context: its size as a real SDK client receives it
 * over streamable HTTP, with the share of output schemas, input schemas and descriptions. A byte count
 * needs no baseline from the run: it is the same on every machine. Cheap (one tools/list); run alone with
 * `deno task bench tests/lib/mcp/tool_list_bench.ts`.
 */
import { reportFigure } from "../../support/bench_figures.ts";
import { startHarness } from "../../support/mcp_harness.ts";
import { TOOLS_LIST_BUDGET_BYTES } from "../../../lib/mcp/listed_schema.ts";
import { toolListing } from "../../../lib/mcp/server.ts";
import { ALL_TOOLS } from "../../../lib/mcp/tools/mod.ts";

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;
const kb = (value: number) => value / 1000;

const harness = await startHarness();
const { tools } = await harness.client.listTools();
await harness.close();

const total = bytes({ tools });
const part = (of: (tool: (typeof tools)[number]) => unknown) =>
  tools.reduce((sum, tool) => sum + bytes(of(tool)), 0);
reportFigure({
  id: "context.tools-list",
  section: "context",
  name: `tools/list of all ${tools.length} tools, as an SDK client receives it (compact JSON)`,
  value: kb(total),
  unit: "KB",
  target: `≤ ${kb(TOOLS_LIST_BUDGET_BYTES)} KB (the test's budget)`,
  met: total <= TOOLS_LIST_BUDGET_BYTES,
  note: `${total.toLocaleString("en-US")} bytes, ${Math.round(total / tools.length)} bytes a tool`,
});
for (
  const [id, name, value] of [
    ["output", "output schemas", part((tool) => tool.outputSchema)],
    ["input", "input schemas", part((tool) => tool.inputSchema)],
    ["descriptions", "tool descriptions", part((tool) => tool.description)],
  ] as const
) {
  reportFigure({
    id: `context.tools-list.${id}`,
    section: "context",
    name: `tools/list: ${name}`,
    value: kb(value),
    unit: "KB",
    detail: true,
    note: `${Math.round((100 * value) / total)}% of tools/list`,
  });
}

Deno.bench("tools/list entries of every tool to JSON (cached listings)", () => {
  JSON.stringify({ tools: ALL_TOOLS.map(toolListing) });
});
