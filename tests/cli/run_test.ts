import assert from "node:assert/strict";
import {
  type CliIo,
  INTERRUPT_MESSAGE,
  INTERRUPTED_EXIT_CODE,
  reportsFailures,
  runCli,
  TERMINATE_MESSAGE,
  TERMINATED_EXIT_CODE,
} from "../../cli/run.ts";
import { type BulkImportSummary, ImportInterruptedError } from "../../lib/csv/summary.ts";
import type { StopSignal } from "../../lib/core/stop_signals.ts";
import { z } from "../../lib/deps/zod.ts";
import { UsageError } from "../../lib/core/errors.ts";
import { createOperationRegistry, inputFields } from "../../lib/operations/mod.ts";
import { OperationRegistry } from "../../lib/operations/registry.ts";
import { defineOperation, type OperationContext, READ } from "../../lib/operations/types.ts";
import { VERSION } from "../../lib/core/version.ts";
import { baseEnv, LOOPBACK_PERMISSIONS, MAIN } from "../support/govcat_process.ts";

async function run(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { env, stdout: (t) => out.push(t), stderr: (t) => err.push(t) };
  const code = await runCli(argv, io);
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

Deno.test("--version and top-level --help", async () => {
  const version = await run(["--version"]);
  assert.equal(version.code, 0);
  assert.equal(version.stdout, `govcat ${VERSION}`);
  const help = await run(["--help"]);
  assert.equal(help.code, 0);
  for (const group of createOperationRegistry().groups()) {
    assert.match(help.stdout, new RegExp(`\\n  ${group.name} `));
  }
  assert.match(help.stdout, /serve/);
  assert.match(help.stdout, /CATALOG_ACCOUNT_NAME/);
  assert.deepEqual(await run([]), { ...help });
});

Deno.test("global options work before the command; an unknown one there is refused", async () => {
  const help = await run(["--output=table", "--profile", "prod", "entity", "get", "--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--guid=<string>/);
  assert.match((await run(["--help"])).stdout, /--profile=NAME/);
  const unknown = await run(["--verbos", "entity", "get"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown option --verbos/);
  const dangling = await run(["--profile"]);
  assert.equal(dangling.code, 2);
  assert.match(dangling.stderr, /--profile needs a value/);
  const wrong = await run(["--output=table", "serve"]);
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /--output does not apply to govcat serve/);
  const word = await run(["constructor"]);
  assert.equal(word.code, 2);
  assert.match(word.stderr, /unknown command group "constructor"/);
  // Taken by serve as its own --verbose (a value there would be refused by its parser).
  const serveHelp = await run(["-v", "serve", "--help"]);
  assert.equal(serveHelp.code, 0, serveHelp.stderr);
});

Deno.test("group and command help come from the registry", async () => {
  const group = await run(["entity", "--help"]);
  assert.equal(group.code, 0);
  for (const op of createOperationRegistry().inGroup("entity")) {
    assert.match(group.stdout, new RegExp(op.summary));
  }
  const command = await run(["entity", "get", "--help"]);
  assert.equal(command.code, 0);
  for (const field of inputFields(createOperationRegistry().get("entity.get")!.input)) {
    assert.match(command.stdout, new RegExp(`--${field.flag}`));
  }
  assert.match(command.stdout, /--guid=<string>.*required/);
  assert.deepEqual((await run(["help", "entity", "get"])).stdout, command.stdout);
  const bare = await run(["entity"]);
  assert.equal(bare.code, 2, "a group without a command is incomplete");
  assert.match(bare.stderr, /Commands:/);
});

Deno.test("unknown group, command or option: did-you-mean and exit code 2", async () => {
  const group = await run(["entiy", "get"]);
  assert.equal(group.code, 2);
  assert.match(group.stderr, /unknown command group "entiy"\. Did you mean "entity"\?/);
  const command = await run(["entity", "gett"]);
  assert.equal(command.code, 2);
  assert.match(command.stderr, /unknown command "gett" in group entity\. Did you mean "get"\?/);
  const option = await run(["entity", "get", "--gud=1"]);
  assert.equal(option.code, 2);
  assert.match(option.stderr, /unknown option --gud\. Did you mean "--guid"\?/);
  const flag = await run(["--verison"]);
  assert.equal(flag.code, 2);
  assert.match(flag.stderr, /Did you mean "--version"\?/);
});

Deno.test("configuration errors exit 2 before any network call", async () => {
  const missing = await run(["entity", "get", "--guid=ca7a1000-0000-4000-8000-000000000001"], {});
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /CATALOG_ACCOUNT_NAME is required/);
  const badTimeout = await run(["entity", "get", "--guid=ca7a1000-0000-4000-8000-000000000001"], {
    CATALOG_ACCOUNT_NAME: "c",
    CATALOG_TIMEOUT: "x",
  });
  assert.equal(badTimeout.code, 2);
  assert.match(badTimeout.stderr, /CATALOG_ACCOUNT_NAME|CATALOG_TIMEOUT/);
});

Deno.test("every CLI group is dispatched", async () => {
  const spec = [
    "entity",
    "types",
    "profile",
    "config",
    "validate",
    "lineage_csv",
    "lineage",
    "glossary",
    "collections",
    "domain",
    "uc",
    "scan",
    "search",
  ];
  for (const group of spec) {
    const result = await run([group, "--help"]);
    assert.equal(result.code, 0, `${group} --help`);
    assert.match(result.stdout, new RegExp(`^govcat ${group}:`));
  }
});

Deno.test("a bulk summary that counts failed rows makes the exit code 1", () => {
  assert.equal(reportsFailures({ assigned: 3, failed: 1 }), true);
  assert.equal(reportsFailures({ failed: [{ guid: "x", error: "404" }] }), true);
  assert.equal(reportsFailures({ assigned: 3, failed: 0 }), false);
  assert.equal(reportsFailures({ failed: [] }), false);
  assert.equal(reportsFailures([1, 2]), false);
  assert.equal(reportsFailures(undefined), false);
});

/** An operation of the lineage group whose behaviour each test supplies. */
function probeRegistry(run: (ctx: OperationContext, input: { progress?: boolean }) => Promise<unknown>) {
  return new OperationRegistry().register(defineOperation({
    id: "lineage.probe",
    group: "lineage",
    command: "probe",
    summary: "Test probe",
    input: z.object({ progress: z.boolean().optional().describe("Show progress") }),
    annotations: READ,
    run,
  }));
}

/** Console I/O whose Ctrl-C the test presses, and whose exit is recorded instead of taken. */
function interruptibleIo(extra: Partial<CliIo> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const state = {
    listener: undefined as ((signal?: StopSignal) => void) | undefined,
    unsubscribed: false,
    exits: [] as number[],
  };
  const io: CliIo = {
    env: {},
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    onInterrupt: (listener) => {
      state.listener = listener;
      return () => (state.unsubscribed = true);
    },
    exit: (code) => state.exits.push(code),
    ...extra,
  };
  const press = (signal?: StopSignal) => {
    assert.ok(state.listener, "the operation listens for Ctrl-C while it runs");
    state.listener(signal);
  };
  return { io, out, err, state, press };
}

/** Resolves when `ctx.signal` aborts. */
function aborted(ctx: OperationContext): Promise<void> {
  return new Promise((resolve) => ctx.signal!.addEventListener("abort", () => resolve(), { once: true }));
}

Deno.test("SIGTERM stops an operation as Ctrl-C does, saying so; exit 143, and 143 at once on a second", async () => {
  const { io, out, err, state, press } = interruptibleIo();
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const registry = probeRegistry(async (ctx) => {
    started();
    await aborted(ctx);
    press("SIGTERM");
    return { imported: 40, failed: 0, checkpoint: "saved" };
  });
  const code = runCli(["lineage", "probe"], io, registry);
  await running;
  press("SIGTERM");
  assert.equal(await code, TERMINATED_EXIT_CODE);
  assert.deepEqual(JSON.parse(out.join("\n")), { imported: 40, failed: 0, checkpoint: "saved" });
  assert.deepEqual(err, [TERMINATE_MESSAGE]);
  assert.deepEqual(state.exits, [TERMINATED_EXIT_CODE], "the second SIGTERM quits at once");
});

Deno.test("Ctrl-C aborts the operation's signal; its output is printed and the exit code is 130", async () => {
  const { io, out, err, state, press } = interruptibleIo();
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const registry = probeRegistry(async (ctx) => {
    started();
    await aborted(ctx);
    return { imported: 40, failed: 0, checkpoint: "saved" };
  });
  const code = runCli(["lineage", "probe"], io, registry);
  await running;
  press();
  assert.equal(await code, INTERRUPTED_EXIT_CODE);
  assert.deepEqual(JSON.parse(out.join("\n")), { imported: 40, failed: 0, checkpoint: "saved" });
  assert.deepEqual(err, [INTERRUPT_MESSAGE]);
  assert.equal(state.unsubscribed, true, "the listener is removed when the operation ends");
  assert.deepEqual(state.exits, []);
});

Deno.test("an operation ended by the abort exits 130 without an error line; other errors are told", async () => {
  for (
    const [label, fail, expected] of [
      ["abort reason", (ctx: OperationContext) => Promise.reject(ctx.signal!.reason), [INTERRUPT_MESSAGE]],
      [
        "AbortError",
        () => Promise.reject(new DOMException("The signal has been aborted", "AbortError")),
        [INTERRUPT_MESSAGE],
      ],
      [
        "another error",
        () => Promise.reject(new UsageError("the checkpoint could not be written")),
        [INTERRUPT_MESSAGE, "error: the checkpoint could not be written"],
      ],
    ] as const
  ) {
    const { io, out, err, press } = interruptibleIo();
    const registry = probeRegistry(async (ctx) => {
      queueMicrotask(press);
      await aborted(ctx);
      return fail(ctx);
    });
    assert.equal(await runCli(["lineage", "probe"], io, registry), INTERRUPTED_EXIT_CODE, label);
    assert.deepEqual(out, [], label);
    assert.deepEqual(err, expected, label);
  }
});

Deno.test("an import interrupted by Ctrl-C prints its summary on stdout, its message and hint on stderr", async () => {
  const summary = { operation: "entity.bulk-import", rows: 500, created: 200, pending: 300, failed: 0 };
  const { io, out, err, press } = interruptibleIo();
  const registry = probeRegistry(async (ctx) => {
    queueMicrotask(press);
    await aborted(ctx);
    throw new ImportInterruptedError(
      "interrupted; 200 of 500 rows done, 300 left for --resume.",
      { ...summary, checkpointFile: "rows.csv.govcat-checkpoint" } as unknown as BulkImportSummary,
      { exitCode: INTERRUPTED_EXIT_CODE },
    );
  });
  assert.equal(await runCli(["lineage", "probe"], io, registry), INTERRUPTED_EXIT_CODE);
  assert.deepEqual(JSON.parse(out.join("\n")), { ...summary, checkpointFile: "rows.csv.govcat-checkpoint" });
  assert.deepEqual(err, [
    INTERRUPT_MESSAGE,
    "error: interrupted; 200 of 500 rows done, 300 left for --resume.",
    "hint: Run the same command again with --resume: finished batches are not sent again.",
  ]);
});

Deno.test("a second Ctrl-C quits at once with 130", async () => {
  const { io, err, state, press } = interruptibleIo();
  let release!: () => void;
  const registry = probeRegistry(async () => {
    // An operation slow to wind down: it ignores the signal until the test lets it go.
    queueMicrotask(() => {
      press();
      press();
      release();
    });
    await new Promise<void>((resolve) => (release = resolve));
    return { done: true };
  });
  assert.equal(await runCli(["lineage", "probe"], io, registry), INTERRUPTED_EXIT_CODE);
  assert.deepEqual(state.exits, [INTERRUPTED_EXIT_CODE]);
  assert.deepEqual(err, [INTERRUPT_MESSAGE], "the message is printed once");
});

Deno.test("without Ctrl-C the exit code is the operation's, and the listener is removed", async () => {
  const { io, out, state } = interruptibleIo();
  const registry = probeRegistry((ctx) => Promise.resolve({ aborted: ctx.signal?.aborted, failed: 1 }));
  assert.equal(await runCli(["lineage", "probe"], io, registry), 1);
  assert.deepEqual(JSON.parse(out.join("\n")), { aborted: false, failed: 1 });
  assert.equal(state.unsubscribed, true);
});

/** An operation that reports a little progress, logs a warning halfway, and returns. */
const reportingProbe = probeRegistry((ctx) => {
  ctx.progress?.update({ phase: "importing", done: 0, total: 10, errors: 0 });
  ctx.logger.warn("row 3: skipped");
  ctx.progress?.update({ phase: "importing", done: 5, total: 10, errors: 1 });
  return Promise.resolve({ imported: 9, failed: 0 });
});

Deno.test("progress: silent off a terminal, plain lines with --progress, a cleared line on a terminal", async () => {
  const quiet = interruptibleIo();
  assert.equal(await runCli(["lineage", "probe"], quiet.io, reportingProbe), 0);
  assert.deepEqual(quiet.err, ["warn: row 3: skipped"]);

  const logged = interruptibleIo();
  assert.equal(await runCli(["lineage", "probe", "--progress"], logged.io, reportingProbe), 0);
  assert.deepEqual(logged.err, ["importing: 0/10 rows (0%), 0 errors", "warn: row 3: skipped"]);

  // On a terminal everything goes to stderr in order: the line, cleared before the warning, drawn again,
  // cleared before the result.
  const screen: string[] = [];
  const terminal = interruptibleIo({
    isTerminal: true,
    columns: 60,
    stderrRaw: (t) => screen.push(t),
    stderr: (t) => screen.push(t + "\n"),
    stdout: (t) => screen.push(`[stdout]${t}`),
  });
  assert.equal(await runCli(["lineage", "probe"], terminal.io, reportingProbe), 0);
  assert.deepEqual(screen.slice(0, -1), [
    // 60 columns: the bar stays, the rate and time left give way; done is padded to the total's width.
    `\rimporting [${".".repeat(28)}]  0/10  0 errors\x1b[K`,
    "\r\x1b[K",
    "warn: row 3: skipped\n",
    `\rimporting [${"#".repeat(14)}${".".repeat(14)}]  5/10  1 error\x1b[K`,
    "\r\x1b[K",
  ]);
  assert.match(screen.at(-1)!, /^\[stdout\]\{/);
});

Deno.test("a real process: Ctrl-C during a request prints the notice and exits 130", async () => {
  // A catalog that accepts requests and never answers them.
  let arrived!: () => void;
  const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
  let releaseAll!: () => void;
  const hold = new Promise<void>((resolve) => (releaseAll = resolve));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async () => {
    arrived();
    await hold;
    return new Response("{}", { status: 503 });
  });
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...LOOPBACK_PERMISSIONS,
      MAIN,
      "entity",
      "get",
      "--guid=6a1a5c3e-0000-4000-8000-000000000001",
    ],
    env: {
      ...baseEnv(),
      CATALOG_ACCOUNT_NAME: "emulator",
      CATALOG_ENDPOINT: `http://127.0.0.1:${server.addr.port}`,
      CATALOG_TIMEOUT: "60",
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = child.output();
  const deadline = setTimeout(() => child.kill("SIGKILL"), 30_000);
  try {
    await requestArrived;
    child.kill("SIGINT");
    const result = await output;
    const stderr = new TextDecoder().decode(result.stderr);
    assert.equal(result.code, INTERRUPTED_EXIT_CODE, stderr);
    assert.equal(stderr.trim(), INTERRUPT_MESSAGE);
    assert.equal(new TextDecoder().decode(result.stdout), "");
  } finally {
    clearTimeout(deadline);
    releaseAll();
    await server.shutdown();
  }
});
