/**
 * Moves the entry module's code of a `deno bundle` output (`main.ts`, last in the file) out of the
 * bundle's top level, into a function that runs once the module has evaluated and the event loop has
 * turned once, so V8's code cache gets stored and stack traces do not parse the whole bundle again.
 *
 * Design: docs/design/fast-start.md
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
