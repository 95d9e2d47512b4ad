/**
 * What ends a long-running command (`govcat emulator`, `govcat serve` over HTTP): Ctrl+C (SIGINT), SIGTERM,
 * the launcher that started it going away (see `launcher_watch.ts`), or an abort signal a test holds.
 *
 * @example
 * ```ts
 * import { waitForStop } from "./stop_signals.ts";
 * const reason = await waitForStop(); // "SIGINT", "SIGTERM", "launcher ended" or "stop requested"
 * ```
 *
 * @module
 */
import { onStopSignals } from "../lib/core/stop_signals.ts";
import { watchLauncher } from "./launcher_watch.ts";

/** Resolves with the name of what stopped us: SIGINT, SIGTERM, `launcher ended` or `stop requested`. */
export function waitForStop(stop?: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    const finish = (reason: string) => {
      stopListening();
      stop?.removeEventListener("abort", onAbort);
      unwatch();
      resolve(reason);
    };
    const onAbort = () => finish("stop requested");
    const stopListening = onStopSignals(finish);
    const unwatch = watchLauncher(() => finish("launcher ended"));
    if (stop?.aborted) return onAbort();
    stop?.addEventListener("abort", onAbort);
  });
}
