/**
 * A process that takes an import's run lock, for the lock tests: `run_lock_holder.ts <path> <holdMs>`
 * prints `locked <pid> <start ms>` once it holds the lock, holds it `holdMs` (forever when negative), then
 * prints `released <pid> <end ms>` and exits 0; refused, it prints `refused <message>` and exits 3.
 *
 * @module
 */
import { RunLock, RunLockedError } from "../../lib/csv/run_lock.ts";

const [path, hold] = Deno.args;
const holdMs = Number(hold ?? "-1");
try {
  const lock = await RunLock.acquire(path);
  console.log(`locked ${Deno.pid} ${Date.now()}`);
  if (holdMs < 0) await new Promise(() => setInterval(() => {}, 60_000));
  await new Promise((resolve) => setTimeout(resolve, holdMs));
  const end = Date.now();
  await lock.release();
  console.log(`released ${Deno.pid} ${end}`);
} catch (error) {
  if (!(error instanceof RunLockedError)) throw error;
  console.log(`refused ${error.message}`);
  Deno.exit(3);
}
