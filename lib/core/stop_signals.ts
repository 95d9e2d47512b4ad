/**
 * The signals that stop a long-running govcat process, listened to the same way everywhere: SIGINT (Ctrl+C)
 * and SIGTERM (a process manager, `kill`).
 *
 * @example
 * ```ts
 * import { onStopSignals } from "./stop_signals.ts";
 * const stopListening = onStopSignals((signal) => console.error(`${signal}: stopping`));
 * stopListening();
 * ```
 *
 * @module
 */

/** The signals that stop a command the same way: in-flight work finishes and progress is saved. */
export type StopSignal = "SIGINT" | "SIGTERM";

/**
 * Calls `listener` with each SIGINT and SIGTERM until the returned function is called. A signal this
 * platform cannot listen to (SIGTERM on Windows) keeps its default effect; Ctrl+C still works there.
 */
export function onStopSignals(listener: (signal: StopSignal) => void): () => void {
  const added: Array<[StopSignal, () => void]> = [];
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    const each = () => listener(signal);
    try {
      Deno.addSignalListener(signal, each);
      added.push([signal, each]);
    } catch {
      // Not available on this platform.
    }
  }
  // A live listener keeps the process running: removed when the caller is done.
  return () => added.forEach(([signal, each]) => Deno.removeSignalListener(signal, each));
}
