/**
 * The library entry point loads only the library: a program that imports `mod.ts` for the catalog clients
 * must not pay for the emulator (its ~80 modules and `node:sqlite`). The emulator has its own export,
 * `./emulator`, and the CLI loads it only when `govcat emulator` or `serve --emulator` runs.
 * The graphs are read with `deno info --json`, following static imports only (a dynamic import loads on use).
 */
import assert from "node:assert/strict";
import { staticGraph } from "./support/module_graph.ts";

const ROOT = new URL("../", import.meta.url);

const emulatorModules = (graph: Set<string>) =>
  [...graph].filter((specifier) => specifier.includes("/lib/emulator/") || specifier === "node:sqlite");

Deno.test("mod.ts loads no emulator module and not node:sqlite", async () => {
  const graph = await staticGraph("mod.ts");
  assert.ok([...graph].some((s) => s.endsWith("/lib/catalog/client.ts")), "the graph was read");
  assert.deepEqual(emulatorModules(graph), []);
});

Deno.test("the emulator is its own export, ./emulator, and starts from there", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  assert.equal(config.exports["./emulator"], "./lib/emulator/mod.ts");
  const library = await import("../mod.ts");
  assert.equal("startEmulator" in library, false, "mod.ts no longer exports the emulator");
  const { startEmulator } = await import(new URL(config.exports["./emulator"], ROOT).href);
  const emulator = await startEmulator({ seed: true });
  try {
    const health = await fetch(`${emulator.url}/_emulator/health`);
    assert.equal(health.status, 200);
    await health.body?.cancel();
  } finally {
    await emulator.close();
  }
});

Deno.test("the CLI loads the emulator only when a command needs it", async () => {
  for (const entry of ["main.ts", "cli/run.ts", "cli/serve_command.ts", "cli/serve_fast.ts"]) {
    const graph = await staticGraph(entry);
    // The account's name is a constant of its own module, imported for the emulator's banner and defaults.
    const loaded = emulatorModules(graph).filter((specifier) =>
      !specifier.endsWith("/lib/emulator/account/name.ts")
    );
    assert.deepEqual(loaded, [], `${entry} loads the emulator before a command asks for it`);
  }
});
