/**
 * Requests start in no call's async context: Deno leaves the context of a call
 * that loaded a module for the first time as the one its server handlers later run in, so without
 * `outsideAnyContext` every later request of every client would belong to that call.
 *
 * @module
 */
import assert from "node:assert/strict";
import { AsyncLocalStorage } from "node:async_hooks";
import { pathToFileURL } from "node:url";
import { outsideAnyContext } from "../../../lib/core/async_context.ts";
import { serveGuarded } from "../../../lib/net/net_guard.ts";

Deno.test("async context: a guarded server's handler runs outside the call that first loaded a module", async () => {
  const store = new AsyncLocalStorage<string>();
  const seen: Array<string | undefined> = [];
  const server = serveGuarded({ hostname: "127.0.0.1", port: 0 }, () => {
    seen.push(store.getStore());
    return new Response("ok");
  });
  const directory = await Deno.makeTempDir();
  try {
    // A module no one has loaded yet, as a tool's module or the operation registry is on first use.
    const module = `${directory}/loaded_in_a_call.ts`;
    await Deno.writeTextFile(module, "export const loaded = true;\n");
    await store.run("a call", async () => {
      const { loaded } = await import(pathToFileURL(module).href);
      assert.equal(loaded, true);
    });
    const url = `http://127.0.0.1:${server.addr.port}/`;
    await (await fetch(url)).text();
    await store.run("another call", async () => await (await fetch(url)).text());
    assert.deepEqual(seen, [undefined, undefined]);
  } finally {
    await server.shutdown();
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("async context: outsideAnyContext runs a function with no store set", () => {
  const store = new AsyncLocalStorage<string>();
  assert.equal(store.run("a call", () => outsideAnyContext(() => store.getStore())), undefined);
  assert.equal(store.run("a call", () => store.getStore()), "a call");
});
