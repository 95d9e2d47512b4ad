/**
 * The checkpoint of a bulk import: an append-only JSON-lines file beside the input recording which batches
 * were started and which completed with what outcome, so a resumed import sends no row twice and loses
 * none. A batch's `started` record is durable before it is sent; `completed` is written only after its
 * answer, so a torn or lost tail can lose progress but never mark unsent rows as done.
 *
 * Design: docs/design/bulk-engine.md
 *
 * @example
 * ```ts
 * import { Checkpoint } from "./checkpoint.ts";
 * const identity = { operation: "entity.bulk-import", file: "/data/e.csv", sha256: "…", size: 10, batchSize: 100, options: "{}" };
 * const { checkpoint, state } = await Checkpoint.open("/data/e.csv.govcat-checkpoint", identity, { resume: true });
 * await checkpoint.started(0, [2, 101]); // on disk before the batch is sent
 * checkpoint.completed({ batch: 0, rows: 100, created: 100, updated: 0, skipped: 0, recovered: 0, rejected: [] });
 * console.log(state.completed.size);
 * ```
 *
 * @module
 */
import { openChecked, readTextChecked } from "../files/checked_open.ts";
import { UsageError } from "../core/errors.ts";
import { CLI_TERMS, type ImportTerms } from "./summary.ts";
import { LocalFileError, writeProblem } from "../files/user_files.ts";

const FORMAT = "govcat-import-checkpoint";
const VERSION = 1;

/** What makes two runs the same import: the input's content and every setting that shapes the batches. */
export interface CheckpointIdentity {
  operation: string;
  /** Absolute path of the input, for messages; the content is compared by `sha256`. */
  file: string;
  sha256: string;
  size: number;
  batchSize: number;
  /** Import options that change what is sent (JSON text), e.g. the domain of a term import. */
  options: string;
  /**
   * The reject file this import writes (absolute): a resume may replace it (file_consent.ts). Not part of
   * what makes two runs the same import.
   */
  errorsFile?: string;
}

/** The outcome of a completed batch. Rows are counted, not units. */
export interface BatchRecord {
  batch: number;
  rows: number;
  created: number;
  updated: number;
  skipped: number;
  /** Rows found already applied when an interrupted batch was checked on resume. */
  recovered: number;
  /** `[line, reason]` of each rejected row. */
  rejected: Array<[number, string]>;
}

/** What earlier runs left: completed batches, and batches started but not known to have finished. */
export interface CheckpointState {
  completed: Map<number, BatchRecord>;
  uncertain: Set<number>;
  /** True when an earlier run's records were found and are being continued. */
  resumed: boolean;
}

export class Checkpoint {
  readonly path: string;
  #file: Deno.FsFile | undefined;
  /** The write that failed: nothing more is appended after it, so a torn line stays the last one. */
  #failed: LocalFileError | undefined;
  readonly #encoder = new TextEncoder();

  private constructor(path: string, file: Deno.FsFile) {
    this.path = path;
    this.#file = file;
  }

  /**
   * Opens the checkpoint of `identity` at `path`. An existing one is continued when `resume` is set (and
   * must describe the same file and settings), and is an error otherwise, so a finished batch is never
   * sent again by accident.
   */
  static async open(
    path: string,
    identity: CheckpointIdentity,
    options: { resume: boolean; terms?: ImportTerms },
  ): Promise<{ checkpoint: Checkpoint; state: CheckpointState }> {
    const terms = options.terms ?? CLI_TERMS;
    const state: CheckpointState = { completed: new Map(), uncertain: new Set(), resumed: false };
    let opened: { file: Deno.FsFile; previous: string | undefined };
    try {
      opened = await openCheckpointFile(path);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw notStarted(path, error);
    }
    const file = opened.file;
    let previous = opened.previous;
    try {
      // A header never made durable: nothing was sent (see the write order), so there is nothing to resume.
      if (previous !== undefined && tornHeader(previous)) {
        await file.truncate(0);
        previous = undefined;
      }
      if (previous !== undefined) {
        if (!options.resume) {
          throw new UsageError(
            `an interrupted import of ${identity.file} left a checkpoint at ${path}.`,
            `Add ${terms.resume} to continue it without sending finished rows again, or ${terms.startOver} to ` +
              "start over.",
          );
        }
        readRecords(previous, path, identity, state, terms);
        state.resumed = true;
        // A torn last line is cut off, so the next record starts a line of its own.
        const end = previous.lastIndexOf("\n") + 1;
        if (end < previous.length) {
          await file.truncate(new TextEncoder().encode(previous.slice(0, end)).length);
        }
      }
    } catch (error) {
      file.close();
      throw error;
    }
    const checkpoint = new Checkpoint(path, file);
    if (!state.resumed) {
      try {
        checkpoint.#append({ format: FORMAT, version: VERSION, ...identity });
      } catch (error) {
        checkpoint.close();
        throw notStarted(path, (error as Error)?.cause ?? error);
      }
    }
    // The header, and the file's entry in its directory, are durable before any batch is sent.
    if (!state.resumed) await checkpoint.#durable().then(() => syncDirectory(path));
    return { checkpoint, state };
  }

  /**
   * Records that a batch is about to be sent; resolves once the record is durable, and only then may the
   * batch be sent. Batches started together share one sync.
   */
  async started(batch: number, lines: [number, number]): Promise<void> {
    this.#append({ event: "started", batch, lines });
    this.#appended++;
    await this.#durable();
  }

  /** Records a batch's outcome, once the service has answered for every row (not synced: see above). */
  completed(record: BatchRecord): void {
    this.#append({ event: "completed", ...record });
    this.#appended++;
  }

  /** Records appended, and of those known durable; the sync under way. */
  #appended = 1;
  #synced = 0;
  #syncing: Promise<void> | undefined;

  /** Waits until every record appended so far is on disk (`fdatasync`), one sync for many callers. */
  async #durable(): Promise<void> {
    const target = this.#appended;
    while (this.#synced < target) {
      if (this.#syncing) {
        await this.#syncing;
        continue;
      }
      const upto = this.#appended;
      const file = this.#file;
      if (!file) throw new Error("checkpoint is closed");
      this.#syncing = file.syncData().finally(() => this.#syncing = undefined);
      await this.#syncing;
      this.#synced = Math.max(this.#synced, upto);
    }
  }

  close(): void {
    this.#file?.close();
    this.#file = undefined;
  }

  /**
   * The reject file recorded by the checkpoint at `path` (its header's `errorsFile`); undefined when there
   * is no checkpoint, or it records none.
   */
  static async recordedErrorsFile(path: string): Promise<string | undefined> {
    let text: string;
    try {
      text = await readTextChecked(path);
    } catch {
      return undefined;
    }
    try {
      const header = JSON.parse(text.split("\n", 1)[0]);
      return header?.format === FORMAT && typeof header.errorsFile === "string"
        ? header.errorsFile
        : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Empties the checkpoint at `path` (`restart`, once consented): emptied rather than removed, through a
   * checked handle, so a link swapped into its path cannot make it empty a file elsewhere. The next
   * {@link open} starts it afresh.
   */
  static async discard(path: string): Promise<void> {
    let file: Deno.FsFile;
    try {
      file = await openChecked(path, { write: true });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      if (error instanceof UsageError) throw error;
      throw notStarted(path, error);
    }
    try {
      await file.truncate(0);
    } finally {
      file.close();
    }
  }

  /** Closes and deletes the checkpoint: the import is complete. */
  async remove(): Promise<void> {
    this.close();
    await Deno.remove(this.path).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
  }

  /**
   * Appends one record. A failed write (a full disk, a directory made read-only) is a LocalFileError that
   * stops the import: batches under way are then checked against the catalog by a resumed run.
   */
  #append(record: Record<string, unknown>): void {
    if (this.#failed) throw this.#failed;
    if (!this.#file) throw new Error("checkpoint is closed");
    const bytes = this.#encoder.encode(JSON.stringify(record) + "\n");
    let written = 0;
    try {
      while (written < bytes.length) written += this.#file.writeSync(bytes.subarray(written));
    } catch (error) {
      this.#failed = new LocalFileError(
        this.path,
        `could not write the import's checkpoint ${this.path}: ${writeProblem(error)}; the import stopped`,
        "Make room (or make the directory writable), then run the same command with --resume: batches " +
          "recorded as finished are not sent again, and one that was under way is checked against the " +
          "catalog before anything is sent.",
        error,
      );
      throw this.#failed;
    }
  }
}

/** The checkpoint could not be created: nothing was sent. */
function notStarted(path: string, error: unknown): LocalFileError {
  return new LocalFileError(
    path,
    `could not write the import's checkpoint ${path}: ${writeProblem(error)}; nothing was sent`,
    "Make the directory writable (or make room), or name a checkpoint file in a writable directory with " +
      "--checkpoint-file, then run the command again.",
    error,
  );
}

/** Whether `text` is what a crash can leave of a checkpoint whose header was being written. */
function tornHeader(text: string): boolean {
  if (text.includes("\n")) return false;
  const written = text.replace(/\0+$/, "");
  const start = `{"format":"${FORMAT}"`;
  return start.startsWith(written) || written.startsWith(start);
}

/** Makes a new file's entry in its directory durable; a no-op where directories cannot be opened. */
async function syncDirectory(path: string): Promise<void> {
  const slash = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  const directory = slash < 0 ? "." : slash === 0 ? "/" : path.slice(0, slash);
  let handle: Deno.FsFile;
  try {
    handle = await Deno.open(directory, { read: true });
  } catch {
    return;
  }
  try {
    await handle.sync();
  } catch {
    // Some systems refuse to sync a directory (Windows); the file's own sync is all there is there.
  } finally {
    handle.close();
  }
}

/**
 * Opens the checkpoint for reading and appending, created when absent, with its text when it existed. The
 * opens are checked (checked_open.ts): a link swapped into its path makes them fail, never write elsewhere;
 * creating uses `createNew`, which never follows a link at the file itself.
 */
async function openCheckpointFile(
  path: string,
): Promise<{ file: Deno.FsFile; previous: string | undefined }> {
  try {
    return {
      file: await openChecked(path, { read: true, append: true, createNew: true }),
      previous: undefined,
    };
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
  const file = await openChecked(path, { read: true, append: true });
  try {
    const bytes = new Uint8Array((await file.stat()).size);
    let length = 0;
    while (length < bytes.length) {
      const read = await file.read(bytes.subarray(length));
      if (read === null) break;
      length += read;
    }
    return { file, previous: new TextDecoder().decode(bytes.subarray(0, length)) };
  } catch (error) {
    file.close();
    throw new UsageError(`cannot read the checkpoint ${path}: ${(error as Error).message}`);
  }
}

function readRecords(
  text: string,
  path: string,
  identity: CheckpointIdentity,
  state: CheckpointState,
  terms: ImportTerms,
): void {
  const lines = text.split("\n");
  const records: Array<Record<string, unknown>> = [];
  for (const [i, line] of lines.entries()) {
    if (line.trim() === "") continue;
    try {
      records.push(JSON.parse(line));
    } catch {
      // Only the last line can be torn by a process killed while writing it.
      if (lines.slice(i + 1).some((rest) => rest.trim() !== "")) {
        throw new UsageError(
          `${path}:${i + 1}: the checkpoint is damaged.`,
          `Start the import over with ${terms.startOver}; rows already imported are upserted again by unique ` +
            "attribute.",
        );
      }
    }
  }
  const [header, ...events] = records;
  if (!header || header.format !== FORMAT || header.version !== VERSION) {
    throw new UsageError(
      `${path} is not a govcat import checkpoint of this version.`,
      `Start the import over with ${terms.startOver}.`,
    );
  }
  const differences = (["operation", "sha256", "size", "batchSize", "options"] as const)
    .filter((key) => header[key] !== identity[key])
    .map((key) => key === "sha256" || key === "size" ? "the file's content" : key);
  if (differences.length > 0) {
    throw new UsageError(
      `the checkpoint ${path} belongs to a different import: ${[...new Set(differences)].join(", ")} ` +
        `changed since it was written (it records ${header.operation} of ${header.file}, batch size ` +
        `${header.batchSize}).`,
      `Resume with the same file and options, or start over with ${terms.startOver}.`,
    );
  }
  for (const event of events) {
    const batch = event.batch as number;
    if (event.event === "started") state.uncertain.add(batch);
    else if (event.event === "completed") {
      state.uncertain.delete(batch);
      state.completed.set(batch, {
        batch,
        rows: event.rows as number,
        created: event.created as number,
        updated: event.updated as number,
        skipped: event.skipped as number,
        recovered: (event.recovered as number) ?? 0,
        rejected: event.rejected as Array<[number, string]>,
      });
    }
  }
}
