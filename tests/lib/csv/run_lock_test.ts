/**
 * The run lock of an import's checkpoint with real processes: one holder at a time, a refusal naming the
 * holder (pid, host, start), a lock left by a SIGKILLed process taken over, processes racing for a dead
 * holder's lock (never two inside at once), and a holder on another host judged by its heartbeat.
 */
import assert from "node:assert/strict";
import { RunLock, RunLockedError } from "../../../lib/csv/run_lock.ts";

const HOLDER = new URL("../../support/run_lock_holder.ts", import.meta.url).pathname;

interface Holder {
  process: Deno.ChildProcess;
  /** Lines printed so far. */
  lines: string[];
  /** Resolves with the first line that starts with `prefix`. */
  line(prefix: string): Promise<string>;
  done: Promise<Deno.CommandStatus>;
}

function spawnHolder(path: string, holdMs: number): Holder {
  const process = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", "--allow-env", HOLDER, path, String(holdMs)],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines: string[] = [];
  const waiting: Array<[string, (line: string) => void]> = [];
  const reading = (async () => {
    let rest = "";
    for await (const chunk of process.stdout.pipeThrough(new TextDecoderStream())) {
      rest += chunk;
      let newline;
      while ((newline = rest.indexOf("\n")) >= 0) {
        const line = rest.slice(0, newline);
        rest = rest.slice(newline + 1);
        lines.push(line);
        for (const [prefix, resolve] of waiting) if (line.startsWith(prefix)) resolve(line);
      }
    }
  })();
  const line = (prefix: string) =>
    new Promise<string>((resolve, reject) => {
      const found = lines.find((l) => l.startsWith(prefix));
      if (found) return resolve(found);
      waiting.push([prefix, resolve]);
      reading.then(() => reject(new Error(`no line starting ${prefix}: ${lines.join(" | ")}`)));
    });
  const timeout = setTimeout(() => {
    try {
      process.kill("SIGKILL");
    } catch { /* gone */ }
  }, 30_000);
  const done = process.status.then(async (status) => {
    clearTimeout(timeout);
    await reading;
    return status;
  });
  return { process, lines, line, done };
}

async function withDir(test: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "govcat-lock-" });
  try {
    await test(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("run lock: a live holder is named; once it is SIGKILLed its lock is taken over", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/import.lock`;
    const holder = spawnHolder(path, -1);
    await holder.line("locked");
    const refused = await RunLock.acquire(path).then(() => undefined, (e) => e);
    assert.ok(refused instanceof RunLockedError, String(refused));
    assert.equal(refused.holder?.pid, holder.process.pid);
    assert.match(
      refused.message,
      new RegExp(
        `another import is running on this checkpoint \\(pid ${holder.process.pid} on host \\S+, ` +
          `started \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z; lock file ${path}\\)`,
      ),
    );
    holder.process.kill("SIGKILL");
    await holder.done;
    // The dead holder's file is still there, naming it.
    assert.match(await Deno.readTextFile(path), new RegExp(`"pid":${holder.process.pid}`));
    const lock = await RunLock.acquire(path);
    assert.equal(lock.holder.pid, Deno.pid);
    assert.match(await Deno.readTextFile(path), new RegExp(`"pid":${Deno.pid}`));
    // Held here: a second acquisition in this process is refused too.
    await assert.rejects(RunLock.acquire(path), RunLockedError);
    await lock.release();
    await assert.rejects(Deno.stat(path), Deno.errors.NotFound, "released, the lock file is gone");
  });
});

Deno.test("run lock: processes racing for a dead holder's lock are never inside together", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/import.lock`;
    const dead = spawnHolder(path, -1);
    await dead.line("locked");
    dead.process.kill("SIGKILL");
    await dead.done;
    const racers = Array.from({ length: 4 }, () => spawnHolder(path, 400));
    const statuses = await Promise.all(racers.map((racer) => racer.done));
    const spans: Array<[number, number]> = [];
    for (const [i, racer] of racers.entries()) {
      const locked = racer.lines.find((line) => line.startsWith("locked"));
      if (!locked) {
        assert.equal(statuses[i].code, 3, racer.lines.join("\n"));
        // The winner's lock file names its pid once written; a racer reading it in between sees a run that
        // is starting. Both are a refusal, which is what matters here.
        assert.match(
          racer.lines.join("\n"),
          /^refused another import is running on this checkpoint \((pid \d+|a run that is starting)/m,
        );
        continue;
      }
      const released = racer.lines.find((line) => line.startsWith("released"))!;
      spans.push([Number(locked.split(" ")[2]), Number(released.split(" ")[2])]);
    }
    assert.ok(spans.length >= 1, "one of them took the lock over");
    spans.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) {
      assert.ok(spans[i][0] >= spans[i - 1][1], `two holders at once: ${JSON.stringify(spans)}`);
    }
  });
});

Deno.test("run lock: a holder on another host is alive while its heartbeat is fresh", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/import.lock`;
    const other = { pid: 4242, host: "another-host.example", started: "2026-01-01T00:00:00.000Z" };
    await Deno.writeTextFile(path, JSON.stringify(other) + "\n");
    const refused = await RunLock.acquire(path, { staleAfterMs: 60_000 }).then(() => undefined, (e) => e);
    assert.ok(refused instanceof RunLockedError, String(refused));
    assert.match(
      refused.message,
      /pid 4242 on host another-host\.example, started 2026-01-01T00:00:00\.000Z/,
    );
    // No heartbeat for two minutes: taken over.
    const old = new Date(Date.now() - 120_000);
    await Deno.utime(path, old, old);
    const lock = await RunLock.acquire(path, { staleAfterMs: 60_000 });
    assert.equal(lock.holder.pid, Deno.pid);
    await lock.release();
  });
});

Deno.test("run lock: the holder's heartbeat keeps its lock file fresh", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/import.lock`;
    const lock = await RunLock.acquire(path, { heartbeatMs: 20 });
    const old = new Date(Date.now() - 120_000);
    await Deno.utime(path, old, old);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const age = Date.now() - (await Deno.stat(path)).mtime!.getTime();
    assert.ok(age < 5_000, `the heartbeat touched the file (${age} ms old)`);
    await lock.release();
  });
});

Deno.test("run lock: a run of this process that was cancelled is waited for, not refused", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/import.lock`;
    const controller = new AbortController();
    const first = await RunLock.acquire(path, { signal: controller.signal });
    controller.abort();
    setTimeout(() => first.release(), 50);
    const second = await RunLock.acquire(path, { cancelledWaitMs: 5_000 });
    assert.equal(second.holder.pid, Deno.pid);
    await second.release();
  });
});

Deno.test("a run that meets a takeover in progress names the run taking over, not the dead holder", async () => {
  const dir = await Deno.makeTempDir({ prefix: "govcat-lock-takeover-" });
  const path = `${dir}/x.csv.govcat-checkpoint.lock`;
  const dead = { pid: 2 ** 22 + 11, host: "gone", started: "2026-01-01T00:00:00.000Z" };
  const taker = { pid: 2 ** 22 + 12, host: "here", started: "2026-01-02T00:00:00.000Z" };
  await Deno.writeTextFile(path, JSON.stringify(dead) + "\n");
  // A taker in the middle of its takeover: it holds the dead file's lock, then renames its own file over it.
  const old = await Deno.open(path, { read: true, write: true });
  const fresh = await Deno.open(`${path}.taker.tmp`, { createNew: true, read: true, write: true });
  try {
    assert.equal(await old.tryLock(true), true);
    assert.equal(await fresh.tryLock(true), true);
    await fresh.write(new TextEncoder().encode(JSON.stringify(taker) + "\n"));
    const attempt = RunLock.acquire(path).then(
      (lock) => lock,
      (error) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 60));
    await Deno.rename(`${path}.taker.tmp`, path);
    const outcome = await attempt;
    assert.ok(outcome instanceof RunLockedError, String(outcome));
    assert.equal(outcome.holder?.pid, taker.pid, outcome.message);
  } finally {
    old.close();
    fresh.close();
    await Deno.remove(dir, { recursive: true });
  }
});
