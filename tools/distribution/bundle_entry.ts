/**
 * Moves the entry module's code of a `deno bundle` output (`main.ts`, last in the file) out of the
 * bundle's top level, into a function that runs once the module has evaluated and the event loop has
 * turned once. Two costs of a single large module go away with it:
 *
 * - Deno stores a module's V8 code cache from the event loop. `main.ts` awaits the command and calls
 *   `Deno.exit` from its top-level code; for `--version` nothing in between turns the event loop, so the
 *   bundle's cache was never stored and every run compiled all of it again (about 50 ms). A dynamic
 *   import of an empty `data:` module (about 1 ms) makes the turn.
 * - V8 compiles without source positions and recovers them, when a stack trace needs them, by parsing the
 *   function again. While top-level code runs, that function is the whole bundle (about 15 ms per MB of
 *   code), and `console` calls or an error's stack while `main.ts` awaited at the top level paid for it.
 *
 * @module
 */

/** Where the entry's code ends: the legal comments esbuild puts at the end of the file, or the end. */
function entryEnd(code: string, from: number): number {
  const legal = /^(?:\/\*!|\/\/!)/m.exec(code.slice(from));
  return legal ? from + legal.index : code.length;
}

/**
 * Wraps the code of `entry` (the path esbuild prints in its `// path` header, `main.ts`) in an async
 * function started after one turn of the event loop (or at once, should that import fail); throws if the
 * entry is not the bundle's last module or is not plain top-level code (an `import` or `export`
 * statement).
 */
export function deferEntry(code: string, entry = "main.ts"): string {
  const header = `\n// ${entry}\n`;
  const start = code.lastIndexOf(header);
  if (start < 0) throw new Error(`deferred entry: the bundle has no ${entry} section`);
  const bodyStart = start + header.length;
  const end = entryEnd(code, bodyStart);
  const body = code.slice(bodyStart, end);
  if (/^\/\/ \S/m.test(body)) {
    throw new Error(`deferred entry: ${entry} is not the last module of the bundle`);
  }
  if (/^(?:import|export)\b/m.test(body)) {
    throw new Error(`deferred entry: ${entry} has import or export statements at its top level`);
  }
  const wrapped = [
    "async function __govcat_main() {",
    body.trimEnd(),
    "}",
    "/* A specifier esbuild cannot see, so that it stays a real import: one turn of the event loop. */",
    'var __govcat_tick = "data:text/javascript,";',
    "import(__govcat_tick).catch(() => undefined).then(__govcat_main);",
    "",
  ].join("\n");
  return code.slice(0, bodyStart) + wrapped + code.slice(end);
}
