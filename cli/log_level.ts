/**
 * The log level a command starts with, before its configuration is read.
 *
 * @module
 */
import type { EnvSource, LogLevel } from "../lib/config/config.ts";

/** The log level before the configuration is read: --verbose, else a valid CATALOG_LOG, else warn. */
export function initialLogLevel(env: EnvSource, verbose = false): LogLevel {
  if (verbose) return "debug";
  const level = env.CATALOG_LOG?.toLowerCase();
  return level === "error" || level === "info" || level === "debug" ? level : "warn";
}
