/**
 * The README's "Where things live" table against the tree: every path it names exists, and every folder
 * of `lib/` (and the top-level folders a contributor opens first) is named, so a move shows here.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);

async function layoutPaths(): Promise<string[]> {
  const readme = await Deno.readTextFile(new URL("README.md", ROOT));
  const start = readme.indexOf("Where things live:");
  assert.ok(start >= 0, "README.md has the layout table");
  const table = readme.slice(start, readme.indexOf("\n\n", readme.indexOf("| Path", start)));
  return table.split("\n").slice(3).flatMap((line) =>
    [...(line.split("|")[1] ?? "").matchAll(/`([^`]+)`/g)].map((match) => match[1])
  );
}

Deno.test("the README's layout table names paths that exist, and every folder of lib/", async () => {
  const named = await layoutPaths();
  assert.ok(named.length >= 10, named.join(", "));
  for (const path of named.filter((p) => !p.includes("*"))) {
    await Deno.stat(new URL(path, ROOT)).catch(() =>
      assert.fail(`README names ${path}, which does not exist`)
    );
  }
  const folders = (dir: string) =>
    Array.from(Deno.readDirSync(new URL(dir, ROOT))).filter((e) => e.isDirectory).map((e) =>
      `${dir}${e.name}/`
    );
  const expected = [...folders("lib/"), "cli/", "tools/", "tests/"];
  assert.deepEqual(
    expected.filter((folder) => !named.includes(folder)),
    [],
    "folders the table does not name",
  );
});
