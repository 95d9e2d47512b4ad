import assert from "node:assert/strict";
import { reachesOut, testSets } from "../../tools/test_sets.ts";

Deno.test("a module reaches out when it listens, connects, spawns, starts a worker or imports the emulator", () => {
  for (
    const source of [
      "const server = Deno.serve({ port: 0 }, handler);",
      "await new Deno.Command(Deno.execPath(), { args }).output();",
      'const worker = new Worker(new URL("./w.ts", import.meta.url));',
      'import { startEmulator } from "../../../lib/emulator/mod.ts";',
      "const answer = await fetch(url);",
    ]
  ) assert.ok(reachesOut(source), source);
  for (
    const source of [
      'import { parseCsv } from "../../lib/csv/reader.ts";',
      "const text = await Deno.readTextFile(path);",
      'import { emulatorFixture } from "./fixtures.ts";',
    ]
  ) assert.ok(!reachesOut(source), source);
});

Deno.test("the suite splits into unit and end-to-end files, every file in exactly one", async () => {
  const { unit, e2e } = await testSets();
  assert.ok(unit.length > 50 && e2e.length > 150, `${unit.length} unit, ${e2e.length} e2e`);
  assert.equal(new Set([...unit, ...e2e]).size, unit.length + e2e.length);
  assert.ok(unit.every((path) => !path.startsWith("tests/e2e/") && !path.startsWith("tests/contract/")));
  assert.ok(unit.includes("tests/layering_test.ts"));
  // Starts the emulator only through a helper of its folder: the helper's imports are followed.
  assert.ok(e2e.includes("tests/lib/emulator/collections/routes_test.ts"));
  assert.ok(e2e.includes("tests/lib/mcp/collection_tools_test.ts"));
});
