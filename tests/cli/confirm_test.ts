/**
 * Destructive commands on the command line: asked on a terminal (`CliIo.ask`), refused without one unless
 * `--confirm`, and Ctrl-C during the question ends the command like any interruption.
 */
import assert from "node:assert/strict";
import { readLine } from "../../cli/confirm.ts";
import { type CliIo, INTERRUPT_MESSAGE, INTERRUPTED_EXIT_CODE, runCli } from "../../cli/run.ts";
import { z } from "../../lib/deps/zod.ts";
import { OperationRegistry } from "../../lib/operations/registry.ts";
import { defineOperation, DELETE } from "../../lib/operations/types.ts";

function setup(answers: Array<string | null> | undefined) {
  const deleted: string[] = [];
  const registry = new OperationRegistry().register(defineOperation({
    id: "entity.delete",
    group: "entity",
    command: "delete",
    summary: "test",
    input: z.object({ guid: z.string() }),
    annotations: DELETE,
    run: (_ctx, input) => {
      deleted.push(input.guid);
      return Promise.resolve({ deleted: input.guid });
    },
  }));
  const out: string[] = [];
  const err: string[] = [];
  const questions: string[] = [];
  const io: CliIo = {
    env: {},
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    ask: answers && ((question) => {
      questions.push(question);
      return Promise.resolve(answers.shift() ?? null);
    }),
  };
  const run = (...args: string[]) => runCli(["entity", "delete", "--guid=g1", ...args], io, registry);
  return { run, deleted, out, err, questions, io, registry };
}

Deno.test("without a terminal: refused with exit 2 unless --confirm; nothing runs", async () => {
  const s = setup(undefined);
  assert.equal(await s.run(), 2);
  assert.deepEqual(s.deleted, []);
  assert.deepEqual(s.out, []);
  assert.deepEqual(s.err, [
    "error: entity delete guid=g1 is destructive: refusing to run it without --confirm, as there is no " +
    "terminal to ask on; nothing was sent.",
    "hint: Add --confirm to go ahead.",
  ]);
  assert.equal(await s.run("--confirm"), 0);
  assert.deepEqual(s.deleted, ["g1"]);
});

Deno.test("on a terminal: asked; y or yes runs it, anything else cancels (exit 2); --confirm asks nothing", async () => {
  const s = setup(["y", "YES", "n", "", null]);
  assert.equal(await s.run(), 0);
  assert.equal(await s.run(), 0);
  for (let i = 0; i < 3; i++) assert.equal(await s.run(), 2);
  assert.deepEqual(s.deleted, ["g1", "g1"]);
  assert.equal(s.questions.length, 5);
  assert.match(
    s.questions[0],
    /^entity delete guid=g1 may delete or overwrite data .* Go ahead\? \[y\/N\] $/,
  );
  assert.match(s.err.at(-1)!, /^error: cancelled: entity delete guid=g1 was not run; nothing was sent\.$/);
  assert.equal(await s.run("--confirm"), 0);
  assert.equal(s.questions.length, 5, "--confirm asks nothing");
});

Deno.test("Ctrl-C during the question ends the command with 130 and runs nothing", async () => {
  const s = setup(undefined);
  let listener: (() => void) | undefined;
  const io: CliIo = {
    ...s.io,
    onInterrupt: (l) => {
      listener = l;
      return () => {};
    },
    // The question waits for an answer that never comes; Ctrl-C is pressed meanwhile.
    ask: () => {
      queueMicrotask(() => listener!());
      return new Promise(() => {});
    },
  };
  assert.equal(await runCli(["entity", "delete", "--guid=g1"], io, s.registry), INTERRUPTED_EXIT_CODE);
  assert.deepEqual(s.deleted, []);
  assert.deepEqual(s.err, [INTERRUPT_MESSAGE]);
});

Deno.test("readLine: one line, whatever the chunks; null at once at the end of the input", async () => {
  const reader = (chunks: string[]) => {
    const bytes = chunks.map((c) => new TextEncoder().encode(c));
    return {
      read: (p: Uint8Array) => {
        const next = bytes.shift();
        if (!next) return Promise.resolve(null);
        p.set(next);
        return Promise.resolve(next.length);
      },
    };
  };
  assert.equal(await readLine(reader(["y", "es\r\n", "more\n"])), "yes");
  assert.equal(await readLine(reader(["n"])), "n");
  assert.equal(await readLine(reader([])), null);
});
