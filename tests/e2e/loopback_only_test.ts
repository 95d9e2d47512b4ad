/**
 * Nothing leaves the machine: representative commands, run under `strace` with the environment the
 * project's own processes get (`baseEnv()`: DENO_NO_UPDATE_CHECK=1), send to no address outside
 * 127.0.0.0/8 and ::1 and make no DNS query. The commands: the README's start task (`deno task start`) until
 * it is ready, a CLI call against an emulator, a small CSV import, and `serve` over stdio answering an
 * initialize. The check proves it can fail: a Deno started without DENO_NO_UPDATE_CHECK is seen asking
 * for dl.deno.land.
 *
 * strace is in the project's machine image; where it is missing the test says it is skipped, except in CI
 * (CI=true), where its absence is a failure.
 *
 * @module
 */
import assert from "node:assert/strict";
import { startEmulator } from "../../lib/emulator/mod.ts";
import { catalogEnv } from "../support/bulk_import_process.ts";
import { writeEntityCsv } from "../support/entity_csv.ts";
import { baseEnv, govcatArgs } from "../support/govcat_process.ts";
import {
  type Destination,
  isDnsQuery,
  offLoopback,
  STRACE,
  straceAvailable,
  tracedCommand,
} from "../support/loopback_watch.ts";
import { initializeRequest } from "../../tools/distribution/smoke.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const IN_CI = Deno.env.get("CI") === "true";
const RUN_MS = 60_000;
/**
 * How long a server is kept running once it answered: Deno waits 500 ms after starting before its update
 * check, so a server stopped sooner would pass whether or not the check is off.
 */
const LINGER_MS = 1_500;

interface TracedRun {
  code: number;
  stdout: string;
  stderr: string;
  trace: string;
  forbidden: Destination[];
}

/** The pids below `pid` (children first found, then theirs). */
function descendants(pid: number): number[] {
  const found: number[] = [];
  const visit = (parent: number) => {
    let children: string;
    try {
      children = Deno.readTextFileSync(`/proc/${parent}/task/${parent}/children`);
    } catch {
      return;
    }
    for (const child of children.trim().split(/\s+/).filter(Boolean).map(Number)) {
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
}

/**
 * Runs `argv` under strace with `env` (nothing else of ours); `drive` may talk to it through stdin and
 * stdout and returns once it should end (its processes then get SIGTERM, by pid). Killed after RUN_MS.
 */
async function traced(
  argv: string[],
  env: Record<string, string>,
  drive?: (child: Deno.ChildProcess, stdout: ReadableStreamDefaultReader<string>) => Promise<void>,
): Promise<TracedRun> {
  const dir = await Deno.makeTempDir({ prefix: "govcat-loopback-" });
  const traceFile = `${dir}/trace.txt`;
  const [program, ...args] = tracedCommand(argv, traceFile);
  const child = new Deno.Command(program, {
    args,
    cwd: ROOT,
    env,
    clearEnv: true,
    stdin: drive ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stopTree = (signal: Deno.Signal) => {
    // The traced processes, not strace: it detaches from them when signalled and would leave them running.
    for (const pid of descendants(child.pid).reverse()) {
      try {
        Deno.kill(pid, signal);
      } catch {
        // Already gone.
      }
    }
  };
  const timer = setTimeout(() => stopTree("SIGKILL"), RUN_MS);
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let stdout = "";
  try {
    if (drive) {
      await drive(child, {
        read: async () => {
          const chunk = await reader.read();
          if (!chunk.done) stdout += chunk.value;
          return chunk;
        },
      } as ReadableStreamDefaultReader<string>);
      await new Promise((resolve) => setTimeout(resolve, LINGER_MS));
      stopTree("SIGTERM");
    }
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) stdout += chunk.value;
    const status = await child.status;
    if (drive) await child.stdin.close().catch(() => {});
    const trace = await Deno.readTextFile(traceFile);
    return { code: status.code, stdout, stderr: await stderr, trace, forbidden: offLoopback(trace) };
  } finally {
    clearTimeout(timer);
    await Deno.remove(dir, { recursive: true });
  }
}

/** Reads until `pattern` matches what came, or the output ends (an error naming `what`). */
async function readUntil(reader: ReadableStreamDefaultReader<string>, pattern: RegExp, what: string) {
  let text = "";
  while (!pattern.test(text)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`${what} ended before printing ${pattern}:\n${text}`);
    text += value;
  }
  return text;
}

function assertLoopbackOnly(what: string, run: TracedRun): void {
  const shown = run.forbidden.map((d) =>
    `${d.syscall} ${d.address}:${d.port ?? ""} (${d.line.slice(0, 200)})`
  );
  assert.deepEqual(
    shown,
    [],
    `${what} sent beyond loopback or asked DNS; stderr:\n${run.stderr.slice(0, 2000)}`,
  );
}

if (!straceAvailable() && !IN_CI) {
  Deno.test({
    name: `loopback-only check: SKIPPED, ${STRACE} is not installed (install strace to run it)`,
    ignore: true,
    fn: () => {},
  });
} else {
  Deno.test("loopback-only check: strace is present (in CI its absence fails)", () => {
    assert.ok(straceAvailable(), `${STRACE} is missing: the loopback-only check cannot run`);
  });

  Deno.test("loopback-only check: the detector sees Deno's update check when DENO_NO_UPDATE_CHECK is unset", async () => {
    // A fresh DENO_DIR (the update check is skipped for a day once it has answered) and a script with no
    // dependency and no config, so nothing needs downloading; the process lives 3 s, long enough to ask.
    const denoDir = await Deno.makeTempDir({ prefix: "govcat-loopback-deno-dir-" });
    try {
      await Deno.writeTextFile(
        `${denoDir}/wait.ts`,
        "await new Promise((resolve) => setTimeout(resolve, 3000));\n",
      );
      const env = { ...baseEnv(), DENO_DIR: denoDir };
      delete (env as Record<string, string>).DENO_NO_UPDATE_CHECK;
      const run = await traced([Deno.execPath(), "run", "--no-config", `${denoDir}/wait.ts`], env);
      assert.equal(run.code, 0, run.stderr);
      assert.ok(run.forbidden.some(isDnsQuery), `no DNS query seen:\n${run.trace.slice(0, 3000)}`);
      assert.match(run.trace, /dl\\4deno\\4land|dl\.deno\.land/, "the query asks for dl.deno.land");
    } finally {
      await Deno.remove(denoDir, { recursive: true });
    }
  });

  Deno.test("loopback-only check: deno task start (the README's quick start), until ready", async () => {
    const run = await traced(
      [Deno.execPath(), "task", "start", "--", "--port=0"],
      baseEnv(),
      async (_child, stdout) => void await readUntil(stdout, /Press Ctrl\+C/, "deno task start"),
    );
    assert.match(run.stdout, /MCP server[^\n]* on http:\/\/127\.0\.0\.1:\d+/);
    assertLoopbackOnly("deno task start", run);
  });

  Deno.test("loopback-only check: a CLI call and a small CSV import against an emulator", async () => {
    const emulator = await startEmulator({ seed: true });
    const dir = await Deno.makeTempDir();
    try {
      const env = { ...baseEnv(), ...catalogEnv(emulator.url) };
      const listed = await traced([Deno.execPath(), ...govcatArgs(["glossary", "list"])], env);
      assert.equal(listed.code, 0, listed.stderr);
      assertLoopbackOnly("govcat glossary list", listed);

      const file = await writeEntityCsv(`${dir}/small.csv`, 20);
      const imported = await traced(
        [Deno.execPath(), ...govcatArgs(["entity", "bulk-import", "--csv-file", file.path])],
        env,
      );
      assert.equal(imported.code, 0, imported.stderr);
      assert.equal(emulator.entityCount() >= 20, true);
      assertLoopbackOnly("govcat entity bulk-import", imported);
    } finally {
      await emulator.close();
      await Deno.remove(dir, { recursive: true });
    }
  });

  Deno.test("loopback-only check: serve over stdio answers an initialize", async () => {
    const run = await traced(
      [Deno.execPath(), ...govcatArgs(["serve", "--emulator"])],
      baseEnv(),
      async (child, stdout) => {
        const writer = child.stdin.getWriter();
        const initialize = initializeRequest("t");
        const lines = [initialize, { jsonrpc: "2.0", method: "notifications/initialized" }, {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "search_entities", arguments: { query: "customers", limit: 1 } },
        }];
        await writer.write(
          new TextEncoder().encode(lines.map((line) => JSON.stringify(line) + "\n").join("")),
        );
        await readUntil(stdout, /"id":2/, "serve over stdio");
        // Open for LINGER_MS more, then SIGTERM: a client that keeps its server running.
        writer.releaseLock();
      },
    );
    assert.match(run.stdout, /"serverInfo":\{"name":"govcat"/);
    assertLoopbackOnly("govcat serve (stdio)", run);
  });
}
