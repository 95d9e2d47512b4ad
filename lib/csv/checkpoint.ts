/**
 * The checkpoint of a bulk import: an append-only JSON-lines file beside the input that records, for the
 * file's exact content and the import's settings, which batches were started and which were completed with
 * what outcome. A resumed import skips completed batches and checks the started-but-unfinished ones against
 * the catalog before sending anything, so no row is sent twice and none is lost. One line per event keeps
 * each write small and atomic enough: a process killed mid-write leaves at most a torn last line, which is
 * ignored on reading.
 *
 * @example
 * ```ts
 * import { Checkpoint } from "./checkpoint.ts";
 * const identity = { operation: "entity.bulk-import", file: "/data/e.csv", sha256: "…", size: 10, batchSize: 100, options: "{}" };
 * const { checkpoint, state } = await Checkpoint.open("/data/e.csv.govcat-checkpoint", identity, { resume: true });
 * checkpoint.started(0, [2, 101]);
 * checkpoint.completed({ batch: 0, rows: 100, created: 100, updated: 0, skipped: 0, recovered: 0, rejected: [] });
 * console.log(state.completed.size);
 * ```
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { LocalFileError, writeProblem } from "../user_files.ts";

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
    options: { resume: boolean },
  ): Promise<{ checkpoint: Checkpoint; state: CheckpointState }> {
    const state: CheckpointState = { completed: new Map(), uncertain: new Set(), resumed: false };
    const previous = await readIfPresent(path);
    if (previous !== undefined) {
      if (!options.resume) {
        throw new UsageError(
          `an interrupted import of ${identity.file} left a checkpoint at ${path}.`,
          "Add --resume to continue it without sending finished rows again, or delete the checkpoint file " +
            "to start over.",
        );
      }
      readRecords(previous, path, identity, state);
      state.resumed = true;
    }
    let file: Deno.FsFile;
    try {
      file = await Deno.open(path, { append: true, create: true });
    } catch (error) {
      throw notStarted(path, error);
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
    return { checkpoint, state };
  }

  /** Records that a batch is about to be sent. */
  started(batch: number, lines: [number, number]): void {
    this.#append({ event: "started", batch, lines });
  }

  completed(record: BatchRecord): void {
    this.#append({ event: "completed", ...record });
  }

  close(): void {
    this.#file?.close();
    this.#file = undefined;
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

async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new UsageError(`cannot read the checkpoint ${path}: ${(error as Error).message}`);
  }
}

function readRecords(text: string, path: string, identity: CheckpointIdentity, state: CheckpointState): void {
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
          "Delete it to start the import over; rows already imported are upserted again by unique attribute.",
        );
      }
    }
  }
  const [header, ...events] = records;
  if (!header || header.format !== FORMAT || header.version !== VERSION) {
    throw new UsageError(
      `${path} is not a govcat import checkpoint of this version.`,
      "Delete it to start the import over.",
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
      "Resume with the same file and options, or delete the checkpoint to start over.",
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
