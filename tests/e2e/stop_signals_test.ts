/**
 * SIGTERM and SIGINT stop every long-running command the same way, as real subprocesses: `serve` on every
 * transport (stdio with and without the fast start, streamable HTTP and SSE with a session open, hosted)
 * and `emulator` close what they hold and exit 0; an import stops sending, records its checkpoint, prints
 * its summary and how to resume, and exits 130 (SIGINT) or 143 (SIGTERM). Each case measures the time from
 * the signal to the exit and prints it (`stop time: …`).
 *
 * @module
 */
import assert from "node:assert/strict";
import { loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { startEmulator } from "../../lib/emulator/mod.ts";
import { TERMINATE_MESSAGE } from "../../cli/run.ts";
import {
  catalogEnv,
  completedBatches,
  spawnBulkImport,
  summaryIn,
  waitForCompletedBatches,
} from "../support/bulk_import_process.ts";
import { writeEntityCsv } from "../support/entity_csv.ts";
import { baseEnv, govcatArgs, killQuietly, spawnPiped, waitForListening } from "../support/govcat_process.ts";
import { initializeRequest } from "../../tools/distribution/smoke.ts";

/** Longest a command may take from the signal to its exit (measured: well under a second). */
const STOP_BOUND_MS = 5_000;
const SIGNALS = ["SIGTERM", "SIGINT"] as const;

/** Sends `signal` through `kill`, waits for the exit; the time between, printed and bounded. */
async function timedStop<T>(what: string, signal: Deno.Signal, kill: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await kill();
  const ms = Math.round(performance.now() - started);
  console.log(`stop time: ${what}, ${signal}: ${ms} ms`);
  assert.ok(ms < STOP_BOUND_MS, `${what} took ${ms} ms to exit after ${signal}`);
  return result;
}

const SERVE_LISTENING = / on (http:\/\/\S+)\n[\s\S]*Press Ctrl\+C/;

for (const signal of SIGNALS) {
  Deno.test(`emulator: ${signal} stops it, exit 0`, async () => {
    const child = spawnPiped(govcatArgs(["emulator", "--port=0"]));
    const emulator = await waitForListening(child, "the emulator");
    const { code, stderr } = await timedStop("emulator", signal, () => emulator.kill(signal));
    assert.equal(code, 0, stderr);
    assert.match(stderr, new RegExp(`govcat emulator: ${signal}, shutting down`));
  });

  for (const transport of ["http", "sse"]) {
    Deno.test(`serve --transport=${transport} with a session open: ${signal} closes it and exits 0`, async () => {
      const sdk = await loadMcpClientSdk();
      const child = spawnPiped(govcatArgs(["serve", "--emulator", `--transport=${transport}`, "--port=0"]));
      const server = await waitForListening(child, "serve", { listening: SERVE_LISTENING });
      const client = new sdk.Client({ name: "signals-test", version: "1.0.0" });
      const url = new URL(server.url);
      try {
        await client.connect(
          transport === "sse" ? new sdk.SSEClientTransport(url) : new sdk.StreamableHTTPClientTransport(url),
        );
        await client.listTools();
        const { code, stderr } = await timedStop(`serve ${transport}`, signal, () => server.kill(signal));
        assert.equal(code, 0, stderr);
      } finally {
        await client.close().catch(() => {});
        await server.kill("SIGKILL");
      }
    });
  }

  Deno.test(`serve --hosted: ${signal} stops it, exit 0`, async () => {
    const child = spawnPiped(govcatArgs(["serve", "--emulator", "--hosted", "--port=0"]));
    const server = await waitForListening(child, "serve", { listening: SERVE_LISTENING });
    assert.equal((await (await fetch(new URL("/api/health", server.url))).json()).status, "healthy");
    const { code, stderr } = await timedStop("serve hosted", signal, () => server.kill(signal));
    assert.equal(code, 0, stderr);
  });

  for (const fastStart of [true, false]) {
    const label = fastStart ? "serve over stdio" : "serve over stdio without the fast start";
    Deno.test(`${label}, initialized, stdin still open: ${signal} ends it, exit 0`, async () => {
      const child = new Deno.Command(Deno.execPath(), {
        args: govcatArgs(["serve", "--emulator"]),
        env: { ...baseEnv(), ...(fastStart ? {} : { GOVCAT_NO_FAST_START: "1" }) },
        clearEnv: true,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const writer = child.stdin.getWriter();
      const stdout = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      const stderr = new Response(child.stderr).text();
      const killer = setTimeout(() => killQuietly(child, "SIGKILL"), 30_000);
      try {
        const initialize = initializeRequest("t");
        await writer.write(new TextEncoder().encode(JSON.stringify(initialize) + "\n"));
        let answered = "";
        while (!answered.includes("\n")) {
          const { done, value } = await stdout.read();
          if (done) throw new Error(`serve ended before answering:\n${await stderr}`);
          answered += value;
        }
        assert.equal(JSON.parse(answered.split("\n")[0]).result.serverInfo.name, "govcat");
        await writer.write(
          new TextEncoder().encode('{"jsonrpc":"2.0","method":"notifications/initialized"}\n'),
        );
        const status = await timedStop(label, signal, async () => {
          child.kill(signal);
          return await child.status;
        });
        assert.equal(status.code, 0, await stderr);
      } finally {
        clearTimeout(killer);
        await writer.close().catch(() => {});
        await stdout.cancel().catch(() => {});
        await stderr;
      }
    });
  }

  Deno.test(`entity bulk-import: ${signal} finishes the batches in flight, prints the summary and how to resume`, async () => {
    const emulator = await startEmulator({ seed: false });
    const dir = await Deno.makeTempDir();
    try {
      const file = await writeEntityCsv(`${dir}/stopped.csv`, 5_000);
      emulator.faults.set({ latencyMs: 40 });
      const args = ["--csv-file", file.path, "--batch-size", "100", "--concurrency", "4"];
      const env = catalogEnv(emulator.url);
      const checkpoint = `${file.path}.govcat-checkpoint`;
      const run = spawnBulkImport(args, env, { timeoutMs: 40_000 });
      await waitForCompletedBatches(checkpoint, 5, run);
      const stopped = await timedStop("entity bulk-import", signal, async () => {
        run.kill(signal);
        return await run.result;
      });
      assert.equal(stopped.code, signal === "SIGTERM" ? 143 : 130, stopped.stderr);
      if (signal === "SIGTERM") assert.ok(stopped.stderr.includes(TERMINATE_MESSAGE), stopped.stderr);
      assert.match(stopped.stderr, /hint: .*--resume/);
      const summary = summaryIn(stopped.stdout);
      assert.ok(summary, `the summary is on stdout:\n${stopped.stdout}`);
      assert.equal(summary.checkpointFile, checkpoint);
      assert.ok(summary.pending > 0, `${summary.pending} rows left`);
      // The batches in flight were let finish and recorded.
      assert.equal(emulator.entityCount(), summary.created);
      assert.equal(await completedBatches(checkpoint), (file.rows - summary.pending) / 100);

      emulator.faults.reset();
      const resumed = await spawnBulkImport([...args, "--resume"], env, { timeoutMs: 40_000 }).result;
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.equal(emulator.entityCount(), file.rows);
    } finally {
      await emulator.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
