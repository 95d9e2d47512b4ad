/**
 * One run at a time per import checkpoint: a lock file beside it (`<checkpoint>.lock`, `{pid, host,
 * started}`), created atomically and held with the operating system's file lock, so a second run is
 * refused naming the first, and a dead holder's lock (no OS lock, or a heartbeat older than
 * {@link STALE_AFTER_MS} on another host) is taken over. A run started while a cancelled one finishes its
 * batches waits for it (up to {@link CANCELLED_WAIT_MS}).
 *
 * Design: docs/design/bulk-engine.md
 *
 * @example
 * ```ts
 * import { RunLock } from "./run_lock.ts";
 * const lock = await RunLock.acquire("/data/e.csv.govcat-checkpoint.lock");
 * try {
 *   // … send the batches …
 * } finally {
 *   await lock.release();
 * }
 * ```
 *
 * @module
 */
import { openChecked } from "../files/checked_open.ts";
import { UsageError } from "../core/errors.ts";
import { refusedReplace } from "../files/file_consent.ts";

/** Who holds a lock. */
export interface LockHolder {
  pid: number;
  host: string;
  /** When the holder started (ISO 8601). */
  started: string;
}

/** How often the holder touches its lock file. */
export const HEARTBEAT_MS = 5_000;
/** A lock of another host whose heartbeat is older than this is taken over. */
export const STALE_AFTER_MS = 60_000;
/** How long a run waits for a cancelled run of this process to finish its batches in flight. */
export const CANCELLED_WAIT_MS = 60_000;

/** Another run holds the lock. */
export class RunLockedError extends UsageError {
  readonly holder: LockHolder | undefined;
  constructor(path: string, holder: LockHolder | undefined, hint?: string) {
    const who = holder
      ? `pid ${holder.pid} on host ${holder.host}, started ${holder.started}`
      : "a run that is starting";
    super(
      `another import is running on this checkpoint (${who}; lock file ${path}); nothing was sent.`,
      hint ??
        "Wait for it to finish, or stop it and run again: a lock left by a process that ended is taken " +
          "over by the next run.",
    );
    this.holder = holder;
  }
}

/** Locks held by this process, by path, with the signal of the run holding each. */
const heldHere = new Map<string, { signal?: AbortSignal; released: Promise<void> }>();

/** How many times a race (a file created or replaced under us) is retried before giving up. */
const ATTEMPTS = 20;
/** How long a run waits, on finding a lock file locked, for a takeover in progress to finish. */
const TAKEOVER_GRACE_MS = 250;

export interface RunLockOptions {
  /** The run's signal: a run of this process whose signal is aborted is waited for, not refused. */
  signal?: AbortSignal;
  /** The hint of the refusal (how the caller waits or stops the other run). */
  hint?: string;
  /** Heartbeat period and staleness (tests shorten them). */
  heartbeatMs?: number;
  staleAfterMs?: number;
  cancelledWaitMs?: number;
  /**
   * The caller's consent to replace a file at the lock's path that is not a lock (file_consent.ts); without
   * it such a file is refused, never taken over. `option` names the checkpoint in the refusal.
   */
  overwrite?: boolean;
  option?: string;
}

/** A lock held on an import's checkpoint; see the module documentation. */
export class RunLock {
  readonly path: string;
  readonly holder: LockHolder;
  #file: Deno.FsFile | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #release: () => void;

  private constructor(path: string, holder: LockHolder, file: Deno.FsFile, heartbeatMs: number) {
    this.path = path;
    this.holder = holder;
    this.#file = file;
    let release = () => {};
    const released = new Promise<void>((resolve) => release = resolve);
    this.#release = release;
    heldHere.set(path, { released, signal: undefined });
    const timer = setInterval(() => {
      const now = new Date();
      this.#file?.utime(now, now).catch(() => {});
    }, heartbeatMs);
    Deno.unrefTimer(timer);
    this.#timer = timer;
  }

  /** Takes the lock at `path`, or throws {@link RunLockedError} naming the run holding it. */
  static async acquire(path: string, options: RunLockOptions = {}): Promise<RunLock> {
    const holder: LockHolder = { pid: Deno.pid, host: hostName(), started: new Date().toISOString() };
    const staleAfterMs = options.staleAfterMs ?? STALE_AFTER_MS;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const here = heldHere.get(path);
      if (here) {
        if (!here.signal?.aborted) throw new RunLockedError(path, await readHolder(path), options.hint);
        // A cancelled run of this process is finishing its batches in flight: wait for it.
        const waited = await Promise.race([
          here.released.then(() => true),
          delay(options.cancelledWaitMs ?? CANCELLED_WAIT_MS).then(() => false),
        ]);
        if (!waited) throw new RunLockedError(path, await readHolder(path), options.hint);
        continue;
      }
      let file = await create(path);
      if (file !== undefined) {
        // Locked and still named by the path, or another run judged it abandoned and took it over.
        if (await tryLock(file) === false || !await namesFile(path, file)) {
          file.close();
          await delay(5 + attempt * 5);
          continue;
        }
        try {
          await writeHolder(file, holder);
        } catch (error) {
          file.close();
          await Deno.remove(path).catch(() => {});
          throw error;
        }
      } else {
        file = await takeOver(path, holder, staleAfterMs, options);
        if (file === undefined) {
          await delay(5 + attempt * 5);
          continue;
        }
      }
      const lock = new RunLock(path, holder, file, options.heartbeatMs ?? HEARTBEAT_MS);
      heldHere.get(path)!.signal = options.signal;
      return lock;
    }
    throw new RunLockedError(path, await readHolder(path), options.hint);
  }

  /** Lets go of the lock: the file is removed while it is still this run's, then its lock released. */
  async release(): Promise<void> {
    const file = this.#file;
    if (!file) return;
    this.#file = undefined;
    clearInterval(this.#timer);
    try {
      if (await namesFile(this.path, file)) await Deno.remove(this.path);
    } catch {
      // Gone already: nothing to remove.
    } finally {
      file.close();
      heldHere.delete(this.path);
      this.#release();
    }
  }
}

/** Creates the lock file; undefined when it exists. */
async function create(path: string): Promise<Deno.FsFile | undefined> {
  try {
    return await openChecked(path, { createNew: true, read: true, write: true });
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return undefined;
    throw error;
  }
}

/**
 * The lock file of a holder that is gone, replaced by this run's (returned, locked); undefined when the
 * path changed meanwhile (try again). Throws {@link RunLockedError} when the holder is alive.
 */
async function takeOver(
  path: string,
  holder: LockHolder,
  staleAfterMs: number,
  options: RunLockOptions,
): Promise<Deno.FsFile | undefined> {
  const hint = options.hint;
  let old: Deno.FsFile;
  try {
    old = await openChecked(path, { read: true, write: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  try {
    const info = await old.stat();
    const text = await readAll(old);
    const previous = parseHolder(text);
    // Not a lock (an empty file is one whose holder was never written): someone's file, kept.
    if (previous === undefined && text.trim() !== "" && !options.overwrite) {
      throw refusedReplace({ option: options.option ?? "--checkpoint-file", shown: path });
    }
    const locked = await tryLock(old);
    if (locked === false) {
      // Alive, or another run taking over a dead holder's file, which holds that file's lock only until
      // its own file replaces it: give a takeover that moment, so the refusal names the run that will
      // hold the lock, not the dead one.
      await delay(TAKEOVER_GRACE_MS);
      if (await namesFile(path, old)) throw new RunLockedError(path, previous, hint);
      return undefined;
    }
    const heartbeat = Date.now() - (info.mtime?.getTime() ?? 0);
    const sameHost = previous?.host === holder.host;
    const alive = locked === undefined
      ? (sameHost && previous ? pidAlive(previous.pid) ?? heartbeat < staleAfterMs : heartbeat < staleAfterMs)
      // The system's lock is free; a holder on another host may not share it: its heartbeat decides.
      : (!sameHost && previous !== undefined && heartbeat < staleAfterMs);
    if (alive) throw new RunLockedError(path, previous, hint);
    if (!await namesFile(path, old)) return undefined;
    const temporary = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
    const fresh = await openChecked(temporary, { createNew: true, read: true, write: true });
    try {
      if (await tryLock(fresh) === false) throw new Error(`cannot lock ${temporary}`);
      await writeHolder(fresh, holder);
      await Deno.rename(temporary, path);
    } catch (error) {
      fresh.close();
      await Deno.remove(temporary).catch(() => {});
      throw error;
    }
    return fresh;
  } finally {
    old.close();
  }
}

/** Whether `path` names the same file as `file`. */
async function namesFile(path: string, file: Deno.FsFile): Promise<boolean> {
  try {
    const [named, open] = await Promise.all([Deno.stat(path), file.stat()]);
    return named.ino === open.ino && named.dev === open.dev;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** The exclusive operating-system lock without waiting: undefined where the file system has none. */
async function tryLock(file: Deno.FsFile): Promise<boolean | undefined> {
  try {
    return await file.tryLock(true);
  } catch {
    return undefined;
  }
}

async function writeHolder(file: Deno.FsFile, holder: LockHolder): Promise<void> {
  const bytes = new TextEncoder().encode(JSON.stringify(holder) + "\n");
  await file.truncate(0);
  await file.seek(0, Deno.SeekMode.Start);
  let written = 0;
  while (written < bytes.length) written += await file.write(bytes.subarray(written));
  await file.syncData();
}

/** The file's text (a lock file is one short line). */
async function readAll(file: Deno.FsFile): Promise<string> {
  await file.seek(0, Deno.SeekMode.Start);
  const buffer = new Uint8Array(4096);
  let length = 0;
  for (;;) {
    const read = await file.read(buffer.subarray(length));
    if (read === null || read === 0) break;
    length += read;
    if (length === buffer.length) break;
  }
  return new TextDecoder().decode(buffer.subarray(0, length));
}

async function readHolder(path: string): Promise<LockHolder | undefined> {
  try {
    return parseHolder(await Deno.readTextFile(path));
  } catch {
    return undefined;
  }
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text);
    return typeof value?.pid === "number" && typeof value.host === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Whether process `pid` of this host is alive: undefined where that cannot be told. */
function pidAlive(pid: number): boolean | undefined {
  if (Deno.build.os !== "linux" || !granted({ name: "read", path: "/proc" })) return undefined;
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch (error) {
    return error instanceof Deno.errors.NotFound ? false : undefined;
  }
}

/** This machine's name, from what the permissions allow (never prompting for one). */
function hostName(): string {
  if (granted({ name: "sys", kind: "hostname" })) {
    try {
      return Deno.hostname();
    } catch { /* below */ }
  }
  for (const path of ["/proc/sys/kernel/hostname", "/etc/hostname"]) {
    if (!granted({ name: "read", path })) continue;
    try {
      const name = Deno.readTextFileSync(path).trim();
      if (name) return name;
    } catch { /* next */ }
  }
  for (const variable of ["HOSTNAME", "COMPUTERNAME"]) {
    if (granted({ name: "env", variable })) {
      const name = Deno.env.get(variable);
      if (name) return name;
    }
  }
  return "unknown";
}

function granted(descriptor: Deno.PermissionDescriptor): boolean {
  try {
    return Deno.permissions.querySync(descriptor).state === "granted";
  } catch {
    return false;
  }
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
