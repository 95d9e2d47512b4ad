/**
 * Start-up of the tool server over stdio: process start to the `tools/list` answer, next to a `deno run`
 * of an empty script on the same machine (the floor). The ratio is the figure that counts. Target: within
 * 2× of the floor and under 150 ms. Measured for `main.ts` and for the bundled single file (built as
 * `deno task bundle` builds it, tools/distribution/bundle.ts, run with `--no-config` from an empty directory
 * like a downloaded file). Then process start to the answer of the first `tools/call`
 * (`get_account_properties`, one request to a local `govcat emulator` started once): the handshake alone
 * is answered by the fast start, a call needs the real server loaded. Target: within 5× of the floor.
 *
 * The three commands run in turn, round after round (a slow moment of a busy machine hits all three), after
 * one warm-up run each that fills Deno's caches (transpiled TypeScript, V8 code cache). The figure is the
 * median of the rounds. Then, as details, `--version` and `--help` of both, the same way.
 *
 * Then start-up as the MCP SDK's own client starts a server (tests/support/sdk_stdio_timing.ts): it waits
 * for each answer before it sends the next request, and checks every answer it gets. Spawn to `tools/list`
 * resolved, and to the first `tools/call` (`get_account_properties`, sent as soon as `tools/list` resolved)
 * resolved, both timed in this process, whose SDK client is loaded before any timing; the client's own
 * work with the answers (validating them, compiling the tools' output schemas) is inside the figure, as a
 * client sees it. These run in the same rounds as the floor. Target: within 3× of the floor each. Then the
 * hand-over: after the first call, a `resources/list` (only the full server answers it, so it starts
 * loading) and one call every 20 ms for a second, without waiting for answers, through the moment the fast
 * start hands the session to the full server; the figure is the slowest of those calls (median over
 * rounds) next to the same call sent one at a time once the full server has the session. Target: within
 * 1.5× of it.
 *
 * Then a breakdown: fresh processes that only import, step by step, zod, the MCP SDK's protocol types,
 * its server (which loads ajv), the operation registry, the tools with the MCP server and the serve
 * command; each step's median minus the previous one is what that layer adds to start-up.
 *
 * `deno bench` calls a bench function at least three times, so the runs happen when the module loads and
 * each figure is printed as one line. GOVCAT_BENCH_QUICK=1 runs 9 rounds instead of 31.
 *
 * Run: `deno task bench tests/e2e/serve_startup_bench.ts`
 */
import { buildBundle } from "../../tools/distribution/bundle.ts";
import { initializeRequest } from "../../tools/distribution/smoke.ts";
import { median, QUICK, reportFigure } from "../support/bench_figures.ts";
import { startEmulatorProcess } from "../support/emulator_process.ts";
import { baseEnv, MAIN } from "../support/govcat_process.ts";
import {
  handoverStall,
  type HandoverTimes,
  prepareSdkClient,
  type SdkStartTimes,
  timeSdkStart,
} from "../support/sdk_stdio_timing.ts";

const ROUNDS = QUICK ? 9 : 31;
const BREAKDOWN_ROUNDS = QUICK ? 5 : 11;
const TARGET_RATIO = 2;
const TARGET_MS = 150;
const FIRST_CALL_TARGET_RATIO = 5;
const SDK_TARGET_RATIO = 3;
const HELP_TARGET_RATIO = 3;
const STALL_TARGET_RATIO = 1.5;
const STALL_ROUNDS = QUICK ? 3 : 9;
const HANDOVER_PROBE = { intervalMs: 20, windowMs: 1000, afterCount: 10 };
const ROOT = new URL("../../", import.meta.url).pathname;
const PERMISSIONS = ["--allow-net=127.0.0.1", "--allow-env", "--allow-read", "--allow-write"];
const ENV = { ...baseEnv(), CATALOG_ACCOUNT_NAME: "bench", CATALOG_ENDPOINT: "http://127.0.0.1:9" };
const HANDSHAKE = [
  initializeRequest("bench"),
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
];
const FIRST_CALL = {
  jsonrpc: "2.0",
  id: 3,
  method: "tools/call",
  params: { name: "get_account_properties" },
};

/** Messages as a client writes them to a server's stdin: one JSON text a line. */
function lines(messages: unknown[]): Uint8Array {
  return new TextEncoder().encode(messages.map((m) => JSON.stringify(m)).join("\n") + "\n");
}

/** Milliseconds from spawning `deno args…` until it exits (the floor and the breakdown steps). */
async function timeToExit(args: string[], cwd: string): Promise<number> {
  const started = performance.now();
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    env: ENV,
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  const elapsed = performance.now() - started;
  if (code !== 0) throw new Error(`deno ${args.join(" ")} failed: ${new TextDecoder().decode(stderr)}`);
  return elapsed;
}

/** Milliseconds from spawning `deno args…` (a govcat serve over stdio) until it answers `tools/list`. */
async function timeToToolsList(
  args: string[],
  cwd: string,
  env: Record<string, string> = ENV,
): Promise<number> {
  const { elapsed, out } = await timeToAnswer(args, cwd, env, HANDSHAKE, 2);
  if (!out.includes('"name":"search_entities"')) throw new Error(`tools/list lacks search_entities:\n${out}`);
  return elapsed;
}

/** Milliseconds from spawning a govcat serve until it answers the first `tools/call`, after the handshake. */
async function timeToFirstCall(args: string[], cwd: string, env: Record<string, string>): Promise<number> {
  const { elapsed, out } = await timeToAnswer(args, cwd, env, [...HANDSHAKE, FIRST_CALL], FIRST_CALL.id);
  const answer = out.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line))
    .find((message) => message.id === FIRST_CALL.id);
  if (!answer?.result?.structuredContent || answer.result.isError) {
    throw new Error(`the first tools/call failed: ${JSON.stringify(answer)}`);
  }
  return elapsed;
}

/** Spawns `deno args…`, writes `messages` to its stdin at once, and times the answer with id `id`. */
async function timeToAnswer(
  args: string[],
  cwd: string,
  env: Record<string, string>,
  messages: unknown[],
  id: number,
): Promise<{ elapsed: number; out: string }> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(lines(messages));
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  // A complete line (messages end with one) holding the id: the answer has arrived whole.
  const answered = () => out.split("\n").slice(0, -1).some((line) => line.includes(`"id":${id}`));
  while (!answered()) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`deno ${args.join(" ")} exited before answering request ${id}:\n${out}`);
    out += value;
  }
  const elapsed = performance.now() - started;
  await writer.close();
  await reader.cancel();
  await child.status;
  return { elapsed, out };
}

const dir = await Deno.makeTempDir({ prefix: "govcat-startup-bench-" });
let emulator: Awaited<ReturnType<typeof startEmulatorProcess>> | undefined;
try {
  const empty = `${dir}/empty.ts`;
  await Deno.writeTextFile(empty, "export {};\n");
  const bundle = `${dir}/govcat.js`;
  await buildBundle(bundle, { cwd: ROOT });
  emulator = await startEmulatorProcess({ port: 0, dataFile: `${dir}/catalog.db` });
  const catalogEnv = { ...ENV, CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: emulator.url };

  await prepareSdkClient();
  const sdkStart = (handover?: typeof HANDOVER_PROBE) =>
    timeSdkStart({
      command: Deno.execPath(),
      args: ["run", ...PERMISSIONS, MAIN, "serve", ...(handover ? ["-v"] : [])],
      env: catalogEnv,
      cwd: ROOT,
      call: { name: "get_account_properties" },
      handover,
    });
  const sdkSamples: SdkStartTimes[] = [];
  const commands = {
    floor: () => timeToExit(["run", empty], dir),
    source: () => timeToToolsList(["run", ...PERMISSIONS, MAIN, "serve"], ROOT),
    bundle: () => timeToToolsList(["run", ...PERMISSIONS, "--no-config", bundle, "serve"], dir),
    firstCall: () => timeToFirstCall(["run", ...PERMISSIONS, MAIN, "serve"], ROOT, catalogEnv),
    sdk: async () => (sdkSamples.push(await sdkStart()), 0),
  };
  const samples = {
    floor: [] as number[],
    source: [] as number[],
    bundle: [] as number[],
    firstCall: [] as number[],
    sdk: [] as number[],
  };
  for (const run of Object.values(commands)) await run();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of Object.entries(commands)) {
      samples[name as keyof typeof samples].push(await run());
    }
  }
  sdkSamples.splice(0, 1);
  const handovers: HandoverTimes[] = [];
  for (let round = 0; round < STALL_ROUNDS; round++) {
    handovers.push((await sdkStart(HANDOVER_PROBE)).handover!);
  }
  await emulator.kill("SIGTERM");
  emulator = undefined;

  const floor = median(samples.floor);
  const bundleKiB = Math.round((await Deno.stat(bundle)).size / 1024);
  console.log("");
  for (
    const [id, name, times] of [
      ["startup.stdio", "govcat serve (stdio, main.ts) to the tools/list answer", samples.source],
      [
        "startup.bundle",
        `govcat serve (stdio, bundled single file of ${bundleKiB.toLocaleString("en-US")} KiB) to the ` +
        "tools/list answer",
        samples.bundle,
      ],
    ] as const
  ) {
    const value = median(times);
    reportFigure({
      id,
      section: "startup",
      name,
      value,
      unit: "ms",
      baseline: { name: "deno run of an empty script", value: floor },
      ratioLabel: "× the floor",
      target: `≤ ${TARGET_RATIO}× the floor and < ${TARGET_MS} ms`,
      met: value / floor <= TARGET_RATIO && value < TARGET_MS,
      note: `median of ${ROUNDS} rounds; min ${Math.min(...times).toFixed(1)} ms, ` +
        `floor min ${Math.min(...samples.floor).toFixed(1)} ms`,
    });
  }
  const firstCall = median(samples.firstCall);
  reportFigure({
    id: "startup.first-call",
    section: "startup",
    name: "govcat serve (stdio, main.ts) to the answer of the first tools/call (get_account_properties, " +
      "local emulator)",
    value: firstCall,
    unit: "ms",
    baseline: { name: "deno run of an empty script", value: floor },
    ratioLabel: "× the floor",
    target: `≤ ${FIRST_CALL_TARGET_RATIO}× the floor`,
    met: firstCall / floor <= FIRST_CALL_TARGET_RATIO,
    note: `median of ${ROUNDS} rounds; min ${Math.min(...samples.firstCall).toFixed(1)} ms; handshake, ` +
      "then the call, written at once",
  });
  reportSdkFigures(sdkSamples, handovers, floor, Math.min(...samples.floor));
  await versionAndHelp(dir, bundle);
  await breakdown(dir);
} finally {
  await emulator?.kill("SIGTERM");
  await Deno.remove(dir, { recursive: true });
}

/** The SDK client's start-up figures and the hand-over stall. */
function reportSdkFigures(sdk: SdkStartTimes[], handovers: HandoverTimes[], floor: number, floorMin: number) {
  const baseline = { name: "deno run of an empty script", value: floor };
  const arrived = median(sdk.map((times) => times.toolsListArrived));
  for (
    const [id, name, times, more] of [
      [
        "startup.sdk.tools-list",
        "govcat serve (stdio, main.ts) started by the MCP SDK client, to tools/list resolved",
        sdk.map((times) => times.toolsList),
        `; its answer arrived at ${arrived.toFixed(1)} ms, the rest is the client's own check of it`,
      ],
      [
        "startup.sdk.first-call",
        "govcat serve (stdio, main.ts) started by the MCP SDK client, to the first tools/call resolved " +
        "(get_account_properties, local emulator, sent when tools/list resolved)",
        sdk.map((times) => times.firstCall),
        "",
      ],
    ] as const
  ) {
    const value = median(times);
    reportFigure({
      id,
      section: "startup",
      name,
      value,
      unit: "ms",
      baseline,
      ratioLabel: "× the floor",
      target: `≤ ${SDK_TARGET_RATIO}× the floor`,
      met: value / floor <= SDK_TARGET_RATIO,
      note: `median of ${times.length} rounds, timed in the bench process from the spawn (SDK loaded ` +
        `before); min ${Math.min(...times).toFixed(1)} ms, floor min ${floorMin.toFixed(1)} ms${more}`,
    });
  }
  const stall = handoverStall(handovers);
  const handedOver = handovers.map((round) => round.handedOverAt);
  reportFigure({
    id: "startup.sdk.handover-stall",
    section: "startup",
    name: "hand-over to the full server: the slowest tools/call sent through it (a resources/list, then a " +
      `call every ${HANDOVER_PROBE.intervalMs} ms for ${HANDOVER_PROBE.windowMs} ms after the first call's ` +
      "answer)",
    value: stall.worst,
    unit: "ms",
    baseline: {
      name: "the same call, one at a time, once the full server has the session",
      value: stall.after,
    },
    ratioLabel: "× a call after the hand-over",
    target: `≤ ${STALL_TARGET_RATIO}× a call after the hand-over`,
    met: stall.ratio <= STALL_TARGET_RATIO,
    note: `median over ${handovers.length} SDK-client sessions of each one's slowest call; the full server ` +
      `loaded ${handedOver.map((at) => Number.isNaN(at) ? "?" : Math.round(at)).join(", ")} ms after the ` +
      "first call's answer (its log line; -v; negative: before it, when the load held up the first call)",
  });
}

/** `--version` and `--help` of `main.ts` and of the bundle, to their exit, in turn round after round. */
async function versionAndHelp(dir: string, bundle: string): Promise<void> {
  const commands: Array<[id: string, name: string, args: string[], cwd: string]> = [];
  for (const flag of ["--version", "--help"]) {
    commands.push(
      [`startup.${flag.slice(2)}`, `govcat ${flag} (main.ts)`, ["run", ...PERMISSIONS, MAIN, flag], ROOT],
      [`startup.bundle.${flag.slice(2)}`, `govcat ${flag} (bundle)`, [
        "run",
        ...PERMISSIONS,
        "--no-config",
        bundle,
        flag,
      ], dir],
    );
  }
  const times = commands.map(() => [] as number[]);
  const floorTimes: number[] = [];
  for (const [, , args, cwd] of commands) await timeToExit(args, cwd);
  for (let round = 0; round < BREAKDOWN_ROUNDS; round++) {
    floorTimes.push(await timeToExit(["run", `${dir}/empty.ts`], dir));
    for (const [index, [, , args, cwd]] of commands.entries()) times[index].push(await timeToExit(args, cwd));
  }
  // Its own floor, in the same rounds: the help figure has a target.
  const floor = median(floorTimes);
  for (const [index, [id, name]] of commands.entries()) {
    reportFigure({
      id,
      section: "startup",
      name,
      value: median(times[index]),
      unit: "ms",
      baseline: { name: "deno run of an empty script", value: floor },
      ratioLabel: "× the floor",
      note: `median of ${BREAKDOWN_ROUNDS} rounds, the floor in the same rounds; min ` +
        `${Math.min(...times[index]).toFixed(1)} ms`,
      ...(id === "startup.help"
        ? {
          target: `≤ ${HELP_TARGET_RATIO}× the floor`,
          met: median(times[index]) / floor <= HELP_TARGET_RATIO,
        }
        : { detail: true }),
    });
  }
}

/**
 * What each layer adds: fresh processes importing one more layer each time, in turn, median of the rounds.
 * Imports use the repository's own deps modules, so versions stay those of lib/deps.
 */
/**
 * What the start-up would cost without the stdio fast start, import step by import step: the full server
 * (`GOVCAT_NO_FAST_START=1`) loads all of these before it answers.
 */
async function breakdown(dir: string): Promise<void> {
  const file = (path: string) => new URL(path, `file://${ROOT}`).href;
  const sdk = /npm:@modelcontextprotocol\/sdk@[\d.]+/.exec(
    await Deno.readTextFile(`${ROOT}lib/deps/mcp_sdk.ts`),
  )![0];
  const steps: Array<[label: string, imports: string[]]> = [
    ["zod (lib/deps/zod.ts)", [file("lib/deps/zod.ts")]],
    ["MCP SDK protocol types (types.js, its zod schemas)", [`${sdk}/types.js`]],
    ["MCP SDK server, stdio and HTTP transports (ajv loads here)", [file("lib/deps/mcp_sdk.ts")]],
    ["operation registry (lib/operations, lib/csv, lib/catalog)", [file("lib/operations/mod.ts")]],
    ["tool definitions and the MCP server (lib/mcp)", [file("lib/mcp/server.ts"), file("lib/mcp/stdio.ts")]],
    ["serve command and CLI (cli/serve_command.ts, cli/run.ts)", [
      file("cli/serve_command.ts"),
      file("cli/run.ts"),
    ]],
  ];
  const scripts: string[] = [];
  let imports: string[] = [];
  for (const [index, [, more]] of steps.entries()) {
    imports = [...imports, ...more];
    const script = `${dir}/step_${index}.ts`;
    await Deno.writeTextFile(script, imports.map((specifier) => `import "${specifier}";\n`).join(""));
    scripts.push(script);
  }
  // The repository's configuration and lock file resolve the npm specifiers, as for main.ts.
  const run = (script: string) => timeToExit(["run", "-A", `--config=${ROOT}deno.json`, script], ROOT);
  for (const script of scripts) await run(script);
  const times = scripts.map(() => [] as number[]);
  const floorTimes: number[] = [];
  const withoutFastStart: number[] = [];
  const slowServe = () =>
    timeToToolsList(["run", ...PERMISSIONS, MAIN, "serve"], ROOT, { ...ENV, GOVCAT_NO_FAST_START: "1" });
  await slowServe();
  for (let round = 0; round < BREAKDOWN_ROUNDS; round++) {
    floorTimes.push(await timeToExit(["run", `${dir}/empty.ts`], dir));
    for (const [index, script] of scripts.entries()) times[index].push(await run(script));
    withoutFastStart.push(await slowServe());
  }
  const full = median(withoutFastStart);
  reportFigure({
    id: "startup.no-fast-start",
    section: "startup",
    name:
      "govcat serve (stdio, main.ts) without the fast start (GOVCAT_NO_FAST_START=1) to the tools/list answer",
    value: full,
    unit: "ms",
    baseline: { name: "deno run of an empty script", value: median(floorTimes) },
    ratioLabel: "× the floor",
    note: `median of ${BREAKDOWN_ROUNDS} rounds; the breakdown below is what it loads`,
    detail: true,
  });
  let previous = median(floorTimes);
  for (const [index, [label]] of steps.entries()) {
    const step = median(times[index]);
    reportFigure({
      id: `startup.breakdown.${index + 1}`,
      section: "startup",
      name: `breakdown: + ${label}`,
      value: step - previous,
      unit: "ms",
      note: `imports up to here: ${step.toFixed(1)} ms (median of ${BREAKDOWN_ROUNDS}, floor ` +
        `${median(floorTimes).toFixed(1)} ms in these rounds)`,
      detail: true,
    });
    previous = step;
  }
  reportFigure({
    id: "startup.breakdown.rest",
    section: "startup",
    name: "breakdown: + tool schemas to JSON Schema, server, handshake, tools/list (the rest)",
    value: full - previous,
    unit: "ms",
    note: "the start-up without the fast start minus the last import step (same rounds)",
    detail: true,
  });
}
