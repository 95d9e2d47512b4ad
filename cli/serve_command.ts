/**
 * `govcat serve`: the MCP tool server. Configuration is validated here first, so a bad transport or
 * port fails at start-up with exit code 2, before anything listens.
 *
 * @module
 */
import { type EnvSource, loadConfig } from "../lib/config.ts";
import { GovcatError } from "../lib/errors.ts";

/** Runs the tool server; returns the exit code. */
export function runServeCommand(_argv: string[], env: EnvSource): Promise<number> {
  loadConfig(env);
  return Promise.reject(
    new GovcatError("the MCP transports of govcat serve are not in this version yet.", {
      hint: "Use the command-line client (govcat --help) or run the emulator with `govcat emulator`.",
    }),
  );
}
