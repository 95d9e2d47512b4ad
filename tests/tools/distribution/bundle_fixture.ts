/**
 * A small project shaped like govcat for the bundle tests: `main.ts` imports a fast module and, on
 * demand, a module that uses three `node:` built-ins, both through `import()`.
 *
 * @module
 */

/** The project's files. */
export const FIXTURE_FILES: Record<string, string> = {
  "main.ts": [
    'const fast = await import("./fast.ts");',
    'console.log(fast.greet(Deno.args[0] ?? "world"));',
    'if (Deno.args[1] === "more") console.log((await import("./cold.ts")).describe("/tmp/a/b.txt"));',
    "Deno.exit(0);",
    "",
  ].join("\n"),
  "fast.ts": "export function greet(name: string): string {\n  return `hello ${name} \u2026`;\n}\n",
  "cold.ts": [
    'import { basename } from "node:path";',
    'import util, { format } from "node:util";',
    'import * as os from "node:os";',
    "export function describe(path: string): string {",
    '  return format("%s %s %s", basename(path), typeof util.inspect, typeof os.platform);',
    "}",
    "",
  ].join("\n"),
};

/** What `main.ts you more` prints. */
export const FIXTURE_OUTPUT = "hello you \u2026\nb.txt function function\n";

/** Writes the project into a new temporary directory and returns its path. */
export async function writeFixture(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "govcat-bundle-fixture-" });
  for (const [name, text] of Object.entries(FIXTURE_FILES)) await Deno.writeTextFile(`${dir}/${name}`, text);
  return dir;
}

/** The plain `deno bundle` output of the project in `dir`. */
export async function rawBundle(dir: string): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--quiet", "--platform=deno", "--output=raw.js", "main.ts"],
    cwd: dir,
    env: { DENO_NO_UPDATE_CHECK: "1" },
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!output.success) throw new Error(new TextDecoder().decode(output.stderr));
  return await Deno.readTextFile(`${dir}/raw.js`);
}
