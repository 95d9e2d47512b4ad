/**
 * The README's tool table against what a running server lists: every tool `tools/list` returns has one row,
 * with the first sentence of its description and the kind its annotations say, and the table has no other
 * row. The table is read from README.md itself, not rendered again, so a tool left out of the generator, a
 * stale README or a kind computed from the wrong hint shows here.
 */
import assert from "node:assert/strict";
import { README_SECTIONS } from "../../../tools/readme_sections.ts";
import { startHarness } from "../../support/mcp_harness.ts";

const README = new URL("../../../README.md", import.meta.url);

interface ReadmeRow {
  summary: string;
  kind: string;
}

/** The rows between the README's tool table markers, by tool name. */
async function readmeToolRows(): Promise<Map<string, ReadmeRow>> {
  const readme = await Deno.readTextFile(README);
  // The markers of the generated tool table; the rows between them are read from the README as it is.
  const markers = README_SECTIONS.find((section) => section.start.startsWith("<!-- tools:start"))!;
  const start = readme.indexOf(markers.start);
  const end = readme.indexOf(markers.end);
  assert.ok(start >= 0 && end > start, "README.md has the tool table markers");
  const rows = new Map<string, ReadmeRow>();
  for (const line of readme.slice(start, end).split("\n")) {
    const cells = line.split("|").slice(1, -1).map((cell) => cell.trim());
    const name = /^`([a-z_]+)`$/.exec(cells[0] ?? "")?.[1];
    if (!name) continue;
    assert.ok(!rows.has(name), `${name} has one row in the README's tool table`);
    rows.set(name, { summary: cells[1], kind: cells[2] });
  }
  return rows;
}

Deno.test("the README's tool table has one row per listed tool, with its summary and kind", async () => {
  const rows = await readmeToolRows();
  const harness = await startHarness();
  try {
    const { tools } = await harness.client.listTools();
    assert.ok(tools.length > 30, `the server lists its tools (${tools.length})`);
    assert.deepEqual(
      [...rows.keys()].sort(),
      tools.map((tool) => tool.name).sort(),
      "same tools, no extra row",
    );
    for (const tool of tools) {
      const row = rows.get(tool.name)!;
      const hints = tool.annotations ?? {};
      const kind = hints.readOnlyHint ? "read-only" : hints.destructiveHint ? "destructive" : "writes";
      assert.equal(row.kind, `${kind}${hints.idempotentHint ? ", idempotent" : ""}`, `${tool.name}: kind`);
      assert.ok(
        (tool.description ?? "").startsWith(row.summary) && /\.$/.test(row.summary),
        `${tool.name}: the README's summary "${row.summary}" is the first sentence of its description`,
      );
    }
  } finally {
    await harness.close();
  }
});
