/**
 * The README's quick start for the command-line client, read from the README itself and run as written
 * against an emulator: only the port (a free one instead of 8085) and `npx -y deno@2.9.6` (this Deno) are
 * replaced, and the few shell forms the block uses (`export`, `name=$(…)`, `"$name"`) are carried out here.
 * A README edit that breaks a command fails here.
 */
import assert from "node:assert/strict";
import { startEmulator } from "../../lib/emulator/mod.ts";
import { runToEnd } from "../../tools/distribution/smoke.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The shell block after "then in another:", with line continuations joined: one command a line. */
function quickStartLines(): string[] {
  const readme = Deno.readTextFileSync(`${ROOT}README.md`);
  const block = /then in another:\n\n```sh\n([\s\S]*?)```/.exec(readme);
  assert.ok(block, "the README's quick start shows the commands to type in the second terminal");
  return block[1].replace(/\\\n\s*/g, "").split("\n").map((line) => line.trim()).filter((line) =>
    line !== ""
  );
}

/** Splits a command line the way a POSIX shell does for these simple lines: blanks, and "…" quotes. */
function words(line: string): string[] {
  return [...line.matchAll(/(?:[^\s"]+|"[^"]*")+/g)].map((m) => m[0].replace(/"/g, ""));
}

Deno.test("README quick start: export, search, uc, create and get run as written against the emulator", async () => {
  const emulator = await startEmulator({ seed: true });
  try {
    const port = new URL(emulator.url).port;
    const env: Record<string, string> = {};
    const shellVariables: Record<string, string> = {};
    const lines = quickStartLines();
    assert.match(
      lines[0],
      /^export CATALOG_ACCOUNT_NAME=emulator CATALOG_ENDPOINT=http:\/\/127\.0\.0\.1:8085$/,
    );
    for (const line of lines) {
      const capture = /^(\w+)=\$\((.*)\)$/.exec(line);
      const command = (capture ? capture[2] : line).replaceAll("8085", port)
        .replace(/"\$(\w+)"/g, (_, name: string) => {
          assert.ok(shellVariables[name], `$${name} is set before it is used`);
          return shellVariables[name];
        });
      const [first, ...rest] = words(command);
      if (first === "export") {
        for (const assignment of rest) {
          const [name, value] = assignment.split("=", 2);
          env[name] = value;
        }
        continue;
      }
      assert.deepEqual([first, ...rest.slice(0, 2)], ["npx", "-y", "deno@2.9.6"], line);
      const result = await runToEnd(Deno.execPath(), rest.slice(2), { cwd: ROOT, env, timeoutMs: 60_000 });
      assert.equal(result.code, 0, `${line}\n${result.stderr}`);
      if (capture) shellVariables[capture[1]] = result.stdout.trim();
    }
    assert.match(shellVariables.guid ?? "", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  } finally {
    await emulator.close();
  }
});
