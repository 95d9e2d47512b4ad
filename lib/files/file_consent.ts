/**
 * The one rule for a local file an operation would replace or remove, in the CLI and over MCP alike: an
 * existing file (an export, a report, a reject file, a checkpoint `restart` would discard, a lock file
 * that is not a lock) is replaced or removed only when the caller said `--overwrite` (`"overwrite": true`);
 * otherwise nothing is written and the refusal names the option, the file and the argument to add. A file
 * that does not exist yet needs no consent. The one exception is an import's own progress: `resume`
 * continues the checkpoint it left, and replaces the reject file that import wrote (the checkpoint records
 * which). A model steered by text in the catalog can thus never clobber a file the user had.
 *
 * @example
 * ```ts
 * import { consentToReplace } from "./file_consent.ts";
 * await consentToReplace("/data/out.csv", { shown: "out.csv", option: "--output-file", overwrite: false });
 * // UsageError when /data/out.csv exists
 * ```
 *
 * @module
 */
import { UsageError } from "../core/errors.ts";

/** The argument that consents, as the CLI and an MCP call write it. */
export const OVERWRITE_CONSENT = '--overwrite ("overwrite": true)';

export interface ReplaceRequest {
  /** The file as the caller named it. */
  shown: string;
  /** The option or argument naming it (`--errors-file`). */
  option: string;
  /** The caller's consent to replace an existing file. */
  overwrite: boolean;
  /** What the operation would do to it: `replace` (default) or `discard` (a checkpoint on `restart`). */
  action?: "replace" | "discard";
}

/**
 * Throws the refusal when `target` exists (as anything, a link included) and `overwrite` is false; returns
 * whether it exists.
 */
export async function consentToReplace(target: string, request: ReplaceRequest): Promise<boolean> {
  const existed = await exists(target);
  if (existed && !request.overwrite) throw refusedReplace(request);
  return existed;
}

/** The refusal of replacing (or discarding) an existing file without consent. */
export function refusedReplace(request: Omit<ReplaceRequest, "overwrite">): UsageError {
  if (request.action === "discard") {
    return new UsageError(
      `${request.option}: ${request.shown} exists and restarting would discard it; nothing was sent.`,
      `Add ${OVERWRITE_CONSENT} to the restart to discard it, continue the import it records with ` +
        '--resume ("resume": true), or name another checkpoint file.',
    );
  }
  return new UsageError(
    `${request.option}: ${request.shown} already exists; nothing was written.`,
    `Add ${OVERWRITE_CONSENT} to replace it, or choose another file name.`,
  );
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}
