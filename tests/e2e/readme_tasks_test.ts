/**
 * The README's task commands as a newcomer types them, through `deno task` (the README adds only the
 * `npx -y deno@2.9.6` in front, which this Deno stands for): the `--` a task runner passes on, and a
 * server that stops when the launcher above `deno task` is killed.
 */
import assert from "node:assert/strict";
import { spawnPiped, waitForListening } from "../support/govcat_process.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

/** True once nothing answers at `url` any more, polled for up to `timeoutMs`. */
async function stopsAnswering(url: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await (await fetch(url, { signal: AbortSignal.timeout(1_000) })).body?.cancel();
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

Deno.test("deno task emulator -- --port=… --seed: the options after the task runner's -- are the emulator's", async () => {
  const child = spawnPiped(["task", "emulator", "--", "--port=0", "--seed"], { cwd: ROOT });
  const emulator = await waitForListening(child, "deno task emulator", {
    listening: /listening on (http:\/\/\S+)\n[\s\S]*Press Ctrl\+C/,
  });
  try {
    assert.match(emulator.banner, /entities: +[1-9]\d*/, "--seed took effect");
    assert.match(
      emulator.banner,
      new RegExp(`export CATALOG_ACCOUNT_NAME=emulator CATALOG_ENDPOINT=${emulator.url}\\n`),
    );
  } finally {
    await emulator.kill("SIGTERM");
  }
});

for (const task of [["emulator", "--port=0"], ["start", "--port=0"]]) {
  Deno.test(`deno task ${task[0]}: killing the launcher above deno task stops the server`, async () => {
    // sh -c stands for npm exec's shell; `; true` keeps it from handing its process over to deno task.
    const line = `'${Deno.execPath()}' task ${task[0]} -- ${task[1]}; true`;
    const launcher = spawnPiped(["-c", line], { program: "sh", cwd: ROOT });
    const server = await waitForListening(launcher, `deno task ${task[0]}`, {
      listening: /(?:listening on|MCP server[^\n]*? on) (http:\/\/127\.0\.0\.1:\d+\S*)[\s\S]*Press Ctrl\+C/,
    });
    // Only the launcher is killed, as a process manager or `kill <npx pid>` does: not its children.
    const ended = server.kill("SIGKILL");
    assert.ok(
      await stopsAnswering(server.url, 10_000),
      `${server.url} still answers after the launcher ended`,
    );
    await ended;
  });
}

Deno.test("deno task test:unit runs the unit part, passing test options on", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "test:unit", "--filter", "the layering table has no cycle"],
    cwd: ROOT,
    env: { DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  });
  const { code, stdout, stderr } = await child.output();
  const text = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  assert.equal(code, 0, text);
  assert.match(text, /ok \| 1 passed \| 0 failed \| [1-9]\d* filtered out/);
});
