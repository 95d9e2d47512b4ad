/**
 * Work that must not belong to whichever call happens to be running: each request a server is handed
 * starts outside every tool call's async context.
 *
 * Why this is needed: in Deno 2.9, a dynamic `import()` that loads a module for the first time, made
 * inside an `AsyncLocalStorage` context (a tool call's, see `lib/mcp/session_log.ts`), leaves that context
 * as the one Deno's event loop runs later callbacks in; `Deno.serve` then calls its handler for every
 * later request, of any client, in it. (Deno saves and restores the context around a dynamic import's
 * evaluation, denoland/deno_core#888; its restore outlives the import.) govcat loads much of itself on
 * first use, inside calls, so without this a session's finished call would receive the log lines of every
 * later request.
 *
 * @example
 * ```ts
 * import { AsyncLocalStorage } from "node:async_hooks";
 * import { outsideAnyContext } from "./async_context.ts";
 * const store = new AsyncLocalStorage<string>();
 * store.run("a call", () => outsideAnyContext(() => console.log(store.getStore()))); // undefined
 * ```
 *
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Runs a function in the context this module was loaded in: the process's root context, since the
 * modules that start servers load at start-up, before any call.
 */
export const outsideAnyContext: <R>(fn: () => R) => R = AsyncLocalStorage.snapshot();
