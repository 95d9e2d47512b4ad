/**
 * Diagnostics on stderr only (stdout carries data and, in stdio MCP mode, JSON-RPC). Every line passes
 * through {@link redactSecrets}, so a secret that reaches a message is masked before it is written.
 *
 * @example
 * ```ts
 * import { createLogger } from "./log.ts";
 * const log = createLogger("debug", { secrets: ["s3cr3t"] });
 * log.debug("token s3cr3t"); // stderr: "debug: token ***"
 * ```
 *
 * @module
 */
/** How much the logger writes to stderr, from least (`error`) to most (`debug`). */
export type LogLevel = "error" | "warn" | "info" | "debug";

const ORDER: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

/** Leveled logger writing one line per call. */
export interface Logger {
  /** Most detailed level written: `error`, `warn`, `info` or `debug`. */
  readonly level: LogLevel;
  /** Writes a failure the user must know about. */
  error(message: string): void;
  /** Writes something that went wrong but did not stop the work. */
  warn(message: string): void;
  /** Writes progress, at `info` and `debug` levels. */
  info(message: string): void;
  /** Writes detail for diagnosing a problem (requests, retries), at `debug` level only. */
  debug(message: string): void;
  /** Adds a value that must never be written (a token, a secret). */
  addSecret(secret: string | undefined): void;
}

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** Values masked as `***` wherever they appear in a message; empty and short ones are skipped. */
  secrets?: Array<string | undefined>;
  /** Where lines go; stderr by default. Tests pass their own. */
  write?: (line: string) => void;
}

const encoder = new TextEncoder();

function writeStderr(line: string): void {
  Deno.stderr.writeSync(encoder.encode(line + "\n"));
}

/**
 * Creates a logger that writes messages at `level` and the levels above it (`error` is the highest), one
 * line per message prefixed with its level, to stderr unless `options.write` says otherwise. Secrets given
 * in `options.secrets` or later with {@link Logger.addSecret} are masked as `***`, and so are bearer tokens
 * and secret-looking query parameters.
 *
 * @example Masking a secret
 * ```ts
 * import assert from "node:assert/strict";
 * import { createLogger } from "./log.ts";
 *
 * const lines: string[] = [];
 * const log = createLogger("info", { secrets: ["s3cr3t-value"], write: (line) => lines.push(line) });
 * log.info("client secret is s3cr3t-value");
 * log.debug("not written: below the info level");
 * assert.deepEqual(lines, ["info: client secret is ***"]);
 * ```
 */
export function createLogger(level: LogLevel, options: LoggerOptions = {}): Logger {
  const secrets = new Set<string>();
  const write = options.write ?? writeStderr;
  const emit = (at: LogLevel, message: string) => {
    const taps = listeners.get(logger);
    const written = ORDER[at] <= ORDER[level];
    if (!written && !taps?.size) return;
    const redacted = redactSecrets(message, secrets);
    if (written) write(`${at}: ${redacted}`);
    // Every level, whatever this logger writes: a listener (an MCP session) has its own level.
    for (const listener of taps ?? []) listener(at, redacted);
  };
  const logger: Logger = {
    level,
    error: (m) => emit("error", m),
    warn: (m) => emit("warn", m),
    info: (m) => emit("info", m),
    debug: (m) => emit("debug", m),
    addSecret(secret) {
      // Very short values would mask ordinary words; real secrets are long.
      if (secret && secret.length >= 6) secrets.add(secret);
    },
  };
  for (const s of options.secrets ?? []) logger.addSecret(s);
  return logger;
}

/** Hears every message of a logger, already masked; see {@link onLogMessage}. */
export type LogListener = (level: LogLevel, message: string) => void;

const listeners = new WeakMap<Logger, Set<LogListener>>();

/**
 * Calls `listener` with every message `logger` (made by {@link createLogger}) is given, at any level,
 * after secrets are masked, as it would write them; returns the function that stops it. The MCP server
 * uses it to send a session's log lines to its client.
 *
 * @example
 * ```ts
 * import { createLogger, onLogMessage } from "./log.ts";
 * const log = createLogger("error", { secrets: ["s3cr3t"], write: () => {} });
 * const stop = onLogMessage(log, (level, message) => console.log(level, message)); // "info token ***"
 * log.info("token s3cr3t");
 * stop();
 * ```
 */
export function onLogMessage(logger: Logger, listener: LogListener): () => void {
  let set = listeners.get(logger);
  if (!set) listeners.set(logger, set = new Set());
  set.add(listener);
  return () => set.delete(listener);
}

/** A logger that writes nothing, for library callers that did not ask for diagnostics. */
export const silentLogger: Logger = createLogger("error", { write: () => {} });

const BEARER = /\b(Bearer\s+)[A-Za-z0-9\-._~+/]+=*/gi;
const SECRET_PARAMS = /([?&](?:code|sig|signature|token|access_token|client_secret|secret|key)=)[^&\s]+/gi;

/** Masks known secrets, bearer tokens and secret-looking query parameters in `text`. */
export function redactSecrets(text: string, secrets: Iterable<string> = []): string {
  let out = text.replace(BEARER, "$1***").replace(SECRET_PARAMS, "$1***");
  for (const secret of secrets) out = out.split(secret).join("***");
  return out;
}
