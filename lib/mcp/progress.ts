/**
 * Progress of a long tool call as MCP `notifications/progress`: when the client asked for progress (the
 * request carries `_meta.progressToken`), a {@link ProgressSink} that sends a few notifications a second at
 * most, and always the last state when the job finishes.
 *
 * @example
 * ```ts
 * import { mcpProgressSink } from "./progress.ts";
 * // In a tools/call handler, the SDK's RequestHandlerExtra stands where this object is.
 * const sent: string[] = [];
 * const progress = mcpProgressSink({
 *   _meta: { progressToken: 1 },
 *   sendNotification: (n) => Promise.resolve(void sent.push(n.params.message ?? "")),
 * });
 * progress?.update({ phase: "importing", done: 10, total: 100, errors: 0 });
 * progress?.finish();
 * await progress?.settled(); // sent: ["importing: 10/100 rows, 0 errors"]
 * ```
 *
 * @module
 */
import type { ProgressReport, ProgressSink } from "../core/progress.ts";
import { counted } from "../core/plural.ts";

/** A `notifications/progress` message. */
export interface ProgressNotification {
  method: "notifications/progress";
  params: { progressToken: string | number; progress: number; total?: number; message?: string };
}

/** The part of the SDK's RequestHandlerExtra progress needs. */
export interface ProgressRequestExtra {
  _meta?: { progressToken?: string | number };
  sendNotification(notification: ProgressNotification): Promise<void>;
}

/** A progress sink whose notifications can be awaited, so the last one goes out before the result. */
export interface McpProgressSink extends ProgressSink {
  /** Resolves once every notification sent so far has been handed to the transport. */
  settled(): Promise<void>;
}

export interface McpProgressOptions {
  /** Milliseconds between notifications at least; 250 (four a second) by default. */
  intervalMs?: number;
  now?: () => number;
  /** Told about a notification that could not be sent (the client went away); progress never fails a job. */
  onError?: (error: unknown) => void;
}

/** The default least interval between notifications. */
export const MCP_PROGRESS_INTERVAL_MS = 250;

/**
 * A sink sending the request's progress notifications, or `undefined` when the request asked for none.
 *
 * MCP requires the progress value to increase with every notification, while a job's `done` starts again
 * from 0 in each phase (validating, then importing): `progress` and `total` therefore count on from the
 * phases before (the rows validated, then those validated plus those imported), and the message carries
 * the phase's own counts.
 */
export function mcpProgressSink(
  extra: ProgressRequestExtra,
  options: McpProgressOptions = {},
): McpProgressSink | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  const interval = options.intervalMs ?? MCP_PROGRESS_INTERVAL_MS;
  const now = options.now ?? (() => performance.now());
  let sending: Promise<void> = Promise.resolve();
  let lastSentAt = -Infinity;
  let lastProgress = -Infinity;
  let sentAny = false;
  let pending: ProgressNotification | undefined;
  let phase: string | undefined;
  let phaseDone = 0;
  let base = 0;

  const send = (notification: ProgressNotification) => {
    pending = undefined;
    sentAny = true;
    lastSentAt = now();
    lastProgress = notification.params.progress;
    sending = sending.then(() => extra.sendNotification(notification)).catch((error) => {
      options.onError?.(error);
    });
  };

  return {
    update(report: ProgressReport) {
      if (phase !== undefined && report.phase !== phase) base += phaseDone;
      phase = report.phase;
      phaseDone = report.done;
      const progress = base + report.done;
      // Not an increase: MCP forbids sending it, and there is nothing new to show but the error count.
      if (progress <= lastProgress) return;
      pending = {
        method: "notifications/progress",
        params: {
          progressToken: token,
          progress,
          ...(report.total === undefined ? {} : { total: base + report.total }),
          message: progressMessage(report),
        },
      };
      if (now() - lastSentAt >= interval) send(pending);
    },
    finish() {
      if (sentAny && pending) send(pending);
      pending = undefined;
    },
    settled: () => sending,
  };
}

/**
 * `importing: 40/100 rows, 2 errors`; `validating: 1 row, 1 error`. With a total, the noun goes with it:
 * `0/1 row`, as in "0 of 1 row".
 */
export function progressMessage(report: ProgressReport): string {
  const count = report.total === undefined
    ? counted(report.done, "row")
    : `${report.done}/${counted(report.total, "row")}`;
  return `${report.phase}: ${count}, ${counted(report.errors, "error")}`;
}
