import assert from "node:assert/strict";
import { z } from "../../../lib/deps/zod.ts";
import { toolListing } from "../../../lib/mcp/server.ts";
import { staleDocsPages } from "../../../tools/docs_pages.ts";
import { ALL_TOOLS } from "../../../lib/mcp/tools/mod.ts";

/** One snapshot per tool, so a change shows in the file of the tool it changed; `index.json` holds the order. */
const SNAPSHOTS = new URL("./__snapshots__/tools/", import.meta.url);
const INDEX = new URL("index.json", SNAPSHOTS);
const UPDATE = "If intended, run: UPDATE_SNAPSHOTS=1 deno test -A tests/lib/mcp/tool_list_test.ts";

const snapshotText = (value: unknown) => JSON.stringify(value, null, 2) + "\n";

async function writeSnapshots(): Promise<void> {
  await Deno.mkdir(SNAPSHOTS, { recursive: true });
  const names = new Set(ALL_TOOLS.map((tool) => tool.name));
  for (const entry of Deno.readDirSync(SNAPSHOTS)) {
    if (entry.name !== "index.json" && !names.has(entry.name.replace(/\.json$/, ""))) {
      await Deno.remove(new URL(entry.name, SNAPSHOTS));
    }
  }
  for (const tool of ALL_TOOLS) {
    await Deno.writeTextFile(new URL(`${tool.name}.json`, SNAPSHOTS), snapshotText(toolListing(tool)));
  }
  await Deno.writeTextFile(INDEX, snapshotText([...names]));
}

Deno.test("the tool list (names, order, schemas, annotations) matches its snapshots, one per tool", async (t) => {
  if (Deno.env.get("UPDATE_SNAPSHOTS") === "1") await writeSnapshots();
  const names = ALL_TOOLS.map((tool) => tool.name);
  assert.deepEqual(
    names,
    JSON.parse(await Deno.readTextFile(INDEX)),
    `The tools or their order changed. ${UPDATE}`,
  );
  const stale = [...Deno.readDirSync(SNAPSHOTS)].map((entry) => entry.name)
    .filter((file) => file !== "index.json" && !names.includes(file.replace(/\.json$/, "")));
  assert.deepEqual(stale, [], `Snapshots of tools that no longer exist. ${UPDATE}`);
  for (const tool of ALL_TOOLS) {
    await t.step(tool.name, async () => {
      const expected = await Deno.readTextFile(new URL(`${tool.name}.json`, SNAPSHOTS));
      assert.equal(snapshotText(toolListing(tool)), expected, `${tool.name} changed. ${UPDATE}`);
    });
  }
});

Deno.test("every tool has a title, a description and all four annotations", () => {
  const names = new Set<string>();
  for (const tool of ALL_TOOLS) {
    assert.match(tool.name, /^[a-z][a-z0-9_]*$/, `${tool.name}: snake_case name`);
    assert.ok(!names.has(tool.name), `${tool.name} is registered once`);
    names.add(tool.name);
    assert.ok(tool.title.length > 3, `${tool.name}: title`);
    assert.ok(tool.description.length >= 60, `${tool.name}: a description a model can act on`);
    const listed = toolListing(tool);
    for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
      assert.equal(typeof listed.annotations?.[hint], "boolean", `${tool.name}: ${hint}`);
    }
    if (tool.annotations.readOnlyHint) {
      assert.equal(tool.annotations.destructiveHint, false, `${tool.name}: read-only tools destroy nothing`);
    }
    assert.equal(listed.inputSchema.type, "object");
    assert.equal(listed.outputSchema?.type, "object");
  }
});

Deno.test("input schemas have no nullable unions", () => {
  const nullable = (node: unknown, path: string): string[] => {
    if (!node || typeof node !== "object") return [];
    const record = node as Record<string, unknown>;
    const found: string[] = [];
    if (record.type === "null" || (Array.isArray(record.type) && record.type.includes("null"))) {
      found.push(path);
    }
    for (const [key, value] of Object.entries(record)) found.push(...nullable(value, `${path}.${key}`));
    return found;
  };
  for (const tool of ALL_TOOLS) {
    assert.deepEqual(
      nullable(toolListing(tool).inputSchema, tool.name),
      [],
      `${tool.name} input has a null type`,
    );
  }
});

Deno.test("the docs' tool and toolset lists, command pages and variables are generated from the registries and current", async () => {
  const stale = (await staleDocsPages()).map((page) => page.path);
  assert.deepEqual(stale, [], `stale generated docs (${stale.join(", ")}): run \`deno task docs\``);
});

/** Paths of input properties (at any depth: nested objects, array items, unions) without a description. */
function undescribed(node: unknown, path: string, seen?: Map<string, string>): string[] {
  if (!node || typeof node !== "object") return [];
  const record = node as Record<string, unknown>;
  const found: string[] = [];
  for (const [name, property] of Object.entries((record.properties ?? {}) as Record<string, unknown>)) {
    const described = typeof (property as { description?: unknown }).description === "string" &&
      String((property as { description: string }).description).trim().length > 0;
    if (!described) found.push(`${path}.${name}`);
    else seen?.set(`${path}.${name}`, (property as { description: string }).description);
    found.push(...undescribed(property, `${path}.${name}`, seen));
  }
  if (record.items) found.push(...undescribed(record.items, `${path}[]`, seen));
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    for (const [i, branch] of ((record[key] ?? []) as unknown[]).entries()) {
      found.push(...undescribed(branch, `${path}|${i}`, seen));
    }
  }
  if (record.additionalProperties && typeof record.additionalProperties === "object") {
    found.push(...undescribed(record.additionalProperties, `${path}{}`, seen));
  }
  return found;
}

Deno.test("tools/list: every input property has a description, and no ±MAX_SAFE_INTEGER bound is published", () => {
  const listing = ALL_TOOLS.map(toolListing);
  // Every field is described where it is declared; the listing leaves out only a description that repeats
  // the field's name (`url`: "URL"), which tells a model nothing more.
  const descriptions = new Map<string, string>();
  const declared = ALL_TOOLS.flatMap((tool) =>
    undescribed(z.toJSONSchema(tool.input, { io: "input", unrepresentable: "any" }), tool.name, descriptions)
  );
  assert.deepEqual(declared, []);
  const words = (text: string) => text.toLowerCase().replace(/[_\s]+/g, " ").trim();
  const unlisted = listing.flatMap((tool) => undescribed(tool.inputSchema, tool.name));
  const notEchoes = unlisted.filter((path) =>
    words(descriptions.get(path) ?? "") !== words(path.slice(path.lastIndexOf(".") + 1))
  );
  assert.deepEqual(notEchoes, []);
  const text = JSON.stringify({ tools: listing });
  // zod's .int() bounds (±9007199254740991) were 43 of tools/list's numbers; the bounds tools set stay.
  assert.equal(text.match(/9007199254740991/g)?.length ?? 0, 0, "no safe-integer bounds");
  const typedefs = listing.find((tool) => tool.name === "list_typedefs")!.inputSchema as unknown as {
    properties: { limit: { minimum: number; maximum: number } };
  };
  assert.deepEqual([typedefs.properties.limit.minimum, typedefs.properties.limit.maximum], [1, 1000]);
  console.log(`tools/list: ${new TextEncoder().encode(text).length} bytes`);
});
