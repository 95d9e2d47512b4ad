/**
 * The emulated account's name, in a module of its own: the CLI needs the name without loading the
 * emulator (its store and `node:sqlite`), which it loads only when a command starts one.
 *
 * @module
 */

/** Name of the emulated account; `govcat serve --emulator` uses it when no account name is set. */
export const EMULATOR_ACCOUNT_NAME = "emulator";
