/**
 * The tool reference in `docs/tools.md` against what a running server lists: every tool `tools/list`
 * returns has one item, with the first sentence of its description and the kind its annotations say, and
 * the list has no other item. The list is read from the page itself, not rendered again, so a tool left out
 * of the generator, a stale page or a kind computed from the wrong hint shows here.
 */
import assert from "node:assert/strict";
import { GENERATED_SECTIONS } from "../../../tools/docs_pages.ts";
import { startHarness } from "../../support/mcp_harness.ts";

const TOOLS_PAGE = new URL("../../../docs/tools.md", import.meta.url);

interface ToolItem {
  summary: string;
  kind: string;
}

/** The items between the page's tool list markers, by tool name; an item's wrapped lines are joined. */
async function documentedTools(): Promise<Map<string, ToolItem>> {
  const page = await Deno.readTextFile(TOOLS_PAGE);
  // The markers of the generated tool list; the items between them are read from the page as it is.
  const markers = GENERATED_SECTIONS.find((section) => section.start.startsWith("<!-- tools:start"))!;
  const start = page.indexOf(markers.start);
  const end = page.indexOf(markers.end);
  assert.ok(start >= 0 && end > start, "docs/tools.md has the tool list markers");
  const items = new Map<string, ToolItem>();
  const text = page.slice(start + markers.start.length, end).replace(/\n {2}/g, " ");
  for (const line of text.split("\n")) {
    const item = /^- `([a-z_]+)` \(([^)]+)\): (.*)$/.exec(line);
    if (!item) continue;
    assert.ok(!items.has(item[1]), `${item[1]} has one item in the tool list`);
    items.set(item[1], { kind: item[2], summary: item[3] });
  }
  return items;
}

Deno.test("docs/tools.md lists each listed tool once, with its summary and kind", async () => {
  const rows = await documentedTools();
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
        `${tool.name}: the documented summary "${row.summary}" is the first sentence of its description`,
      );
    }
  } finally {
    await harness.close();
  }
});
