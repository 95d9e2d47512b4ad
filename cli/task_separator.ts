/**
 * The `--` a task runner passes on: `deno task emulator -- --port=8085` and `npm run x -- --flag` hand the
 * program a literal `--` before the options meant for it. The built-in commands take options only, so a
 * lone `--` there can only be that separator and is dropped instead of turning every option after it into
 * a positional argument.
 *
 * @example
 * ```ts
 * import { withoutTaskSeparator } from "./task_separator.ts";
 * withoutTaskSeparator(["--", "--port=8085", "--seed"]); // ["--port=8085", "--seed"]
 * ```
 *
 * @module
 */

/** `args` without the lone `--` tokens a task runner inserts. */
export function withoutTaskSeparator(args: readonly string[]): string[] {
  return args.filter((arg) => arg !== "--");
}
