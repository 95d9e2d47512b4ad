/**
 * Log lines of a tool call, sent to the client that made it: the services' log lines (masked as the logger
 * masks them) and the catalog's throttling waits, at the level the session asked for (logging/setLevel).
 *
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { LogLevel } from "../config/config.ts";
import type { LoggingLevel } from "../deps/mcp_sdk.ts";
import { onLogMessage } from "../core/log.ts";
import type { ProgressRequestExtra } from "./progress.ts";
import type { ToolServices } from "./tool.ts";

/** The level a session asked for (logging/setLevel), and whether it asked at all. */
export interface SessionLog {
  level: LoggingLevel;
  set: boolean;
}

/** What the SDK hands a request handler, with the call's signal and id. */
export type CallExtra = ProgressRequestExtra & { signal: AbortSignal; requestId?: string | number };

type LogNotification = {
  method: "notifications/message";
  params: { level: LoggingLevel; logger: string; data: string };
};

/** Sends one log line to the client of the tool call that is running. */
export type CallLog = (level: LoggingLevel, message: string) => void;

/** The tool call a log line belongs to, across its awaits: lines reach the session that caused them. */
export const callLog = new AsyncLocalStorage<CallLog>();

/** RFC 5424 severities as MCP names them, least severe first. */
const SEVERITY: LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** What a session gets before it calls logging/setLevel: no per-request debug lines. */
export const DEFAULT_LOG_LEVEL: LoggingLevel = "info";

const MCP_LEVEL: Record<LogLevel, LoggingLevel> = {
  error: "error",
  warn: "warning",
  info: "info",
  debug: "debug",
};

const bridged = new WeakSet<object>();

/**
 * Sends the services' log lines, masked as the logger masks them, and the catalog's throttling waits (a
 * warning: every call of the client waits) to the client whose tool call they happen in. Once per
 * logger and per HTTP client, which every session shares.
 */
export function bridgeLogs(services: ToolServices): void {
  if (!bridged.has(services.logger)) {
    bridged.add(services.logger);
    onLogMessage(services.logger, (level, message) => toRunningCall(MCP_LEVEL[level], message));
  }
  const throttled = (delayMs: number) =>
    toRunningCall(
      "warning",
      delayMs > 0
        ? `The catalog is throttling requests (429): every request waits ${delayMs} ms (Retry-After) before it is sent again.`
        : "The catalog is throttling requests (429): the request is retried after a backoff.",
    );
  for (const client of [services.catalog, services.unified]) {
    let http;
    try {
      http = client().http;
    } catch {
      continue; // A client this configuration cannot build makes no requests.
    }
    if (bridged.has(http)) continue;
    bridged.add(http);
    http.onThrottle(throttled);
  }
}

/**
 * Whether a line is being handed to a call's client now: a line logged while doing so (by whatever the
 * sending runs) is not handed on again, so no line can feed on itself.
 */
let delivering = false;

/** Hands a line to the client of the tool call whose async context this is, if any. */
function toRunningCall(level: LoggingLevel, message: string): void {
  const send = callLog.getStore();
  if (!send || delivering) return;
  delivering = true;
  try {
    send(level, message);
  } finally {
    delivering = false;
  }
}

/**
 * Runs `report` outside any tool call's context, so what it logs reaches stderr but no session: a failure
 * to send something to a client is never itself sent to that client (it would fail the same way, and
 * each failure would log another).
 */
export function outsideCalls<T>(report: () => T): T {
  return callLog.exit(report);
}

/** The log lines of one tool call: {@link CallLogSender.send} while it runs, nothing after {@link end}. */
export interface CallLogSender {
  /** Sends one line to the call's client, at the session's level, while the call runs. */
  send: CallLog;
  /**
   * Ends the call's lines: a line logged later in the call's async context (a timer it left, or work
   * Deno runs in that context after the call, see `lib/core/async_context.ts`) goes nowhere.
   */
  end(): void;
}

/**
 * This call's log lines (retries, throttling waits, a long job's phases), sent to its client at its
 * level. The first line that cannot be sent (the call's stream is gone) ends the sending: that failure is
 * written to stderr once, outside the call, and later lines are dropped.
 */
export function callLogSender(
  log: SessionLog,
  services: ToolServices,
  name: string,
  extra: CallExtra,
): CallLogSender {
  let open = true;
  const send: CallLog = (level, message) => {
    if (!open || SEVERITY.indexOf(level) < SEVERITY.indexOf(log.level)) return;
    // Related to this request, so over streamable HTTP it goes on the call's own stream.
    (extra.sendNotification as unknown as (notification: LogNotification) => Promise<void>)({
      method: "notifications/message",
      params: { level, logger: "govcat", data: message },
    })
      .catch((error) => {
        if (!open) return;
        open = false;
        outsideCalls(() =>
          services.logger.debug(`${name}: log notifications stopped, one could not be sent: ${error}`)
        );
      });
  };
  return { send, end: () => void (open = false) };
}
