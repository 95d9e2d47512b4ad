/**
 * Stops a long-running command when the launcher that started it goes away.
 *
 * `npx -y deno@2.9.6 task start` runs a chain: `npm exec` (node) → `sh -c deno task …` → `deno task` →
 * `deno run main.ts serve`. A terminal's Ctrl+C reaches the whole chain, but a SIGTERM sent to the `npx`
 * process (a process manager, an IDE's stop button, `kill`) ends only npm and its shell: `deno task` is
 * handed to init and the server keeps its port. So the server notes the launchers above it when it starts
 * (walking up while the parent is a launcher, never past the first process that is not one) and stops as
 * if it had received SIGTERM once any of them has ended. A server started by a shell, `nohup` or a service
 * manager has no launcher above it and is never stopped this way.
 *
 * It asks `ps` (Linux, macOS; one call a second), which the `start` and `emulator` tasks allow with
 * `--allow-run=ps`; without that permission, or on Windows (where Ctrl+C reaches every process of the
 * console and there is no SIGTERM), nothing is watched.
 *
 * @example
 * ```ts
 * import { watchLauncher } from "./launcher_watch.ts";
 * const unwatch = watchLauncher(() => console.error("launcher gone, stopping"));
 * // … serve …
 * unwatch();
 * ```
 *
 * @module
 */

/** One process as `ps` shows it. */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  /** When it started: with the pid, tells a process from a later one that reuses its pid. */
  startTime: string;
  /** Its command line split at blanks (a process title set by node is one such line too). */
  command: string[];
  /** `ps`'s state letters: `Z` (zombie) means it has ended though its entry is still there. */
  state?: string;
}

/** Reads processes by pid; a pid missing from the answer has ended. */
export type ProcessReader = (pids: readonly number[]) => Map<number, ProcessEntry>;

/** How often the launchers are looked at. */
export const LAUNCHER_POLL_MS = 1_000;

const PS_LINE = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(\w{3} +\w{3} +\d+ +[\d:]+ +\d{4})\s+(.*)$/;

/**
 * The processes `pids` that still run, read with one `ps` call. Deno keeps `/proc` for `--allow-all`, while
 * `--allow-run=ps` is a narrow grant the tasks can give.
 */
export function readProcesses(pids: readonly number[]): Map<number, ProcessEntry> {
  const found = new Map<number, ProcessEntry>();
  const output = new Deno.Command("ps", {
    args: ["-o", "pid=,ppid=,stat=,lstart=,args=", "-p", pids.join(",")],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  // ps exits 1 when none of the pids runs: an empty answer, not an error.
  for (const line of new TextDecoder().decode(output.stdout).split("\n")) {
    const match = PS_LINE.exec(line);
    if (!match) continue;
    const pid = Number(match[1]);
    found.set(pid, {
      pid,
      ppid: Number(match[2]),
      state: match[3],
      startTime: match[4].replace(/ +/g, " "),
      command: match[5].trim().split(/\s+/),
    });
  }
  return found;
}

const SHELLS = new Set(["sh", "bash", "dash", "zsh"]);
const PACKAGE_RUNNERS = new Set(["npm", "npx", "pnpm", "yarn", "bun"]);

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).replace(/^['"]|['"]$/g, "");
}

/**
 * True for the processes that only start another and pass Ctrl+C on: `deno task`, npm's `exec`/`run`
 * (and npx, pnpm, yarn), and the `sh -c` npm starts the command in.
 */
export function isLauncher(command: readonly string[]): boolean {
  if (command.length === 0) return false;
  const program = baseName(command[0]);
  if (PACKAGE_RUNNERS.has(program)) return true;
  if (
    program === "node" && command.slice(1).some((arg) => /(^|\/)(np[mx](-cli\.js)?|pnpm|yarn)$/.test(arg))
  ) {
    return true;
  }
  if (program === "deno" || program === "deno.exe") {
    return command.slice(1).find((arg) => !arg.startsWith("-")) === "task";
  }
  if (SHELLS.has(program) && command[1] === "-c" && command[2] !== undefined) {
    return ["deno", "npx", "npm"].includes(baseName(command[2]));
  }
  return false;
}

/** The launchers above this process, nearest first: the parent while it is a launcher, then its parent… */
export function launcherChain(parentPid: number, read: ProcessReader = readProcesses): ProcessEntry[] {
  const chain: ProcessEntry[] = [];
  let pid = parentPid;
  // Bounded: a chain of launchers is a handful of processes deep.
  while (pid > 1 && chain.length < 16) {
    const entry = read([pid]).get(pid);
    if (!entry || !isLauncher(entry.command)) break;
    chain.push(entry);
    pid = entry.ppid;
  }
  return chain;
}

/**
 * True when every process of `chain` still runs (same pid and start time, not a zombie) under the same
 * parent: a launcher whose parent ended is handed to init (or a subreaper) even before its parent's entry
 * is gone. The topmost launcher's own parent (a user's shell, perhaps `nohup`) may end.
 */
export function chainAlive(chain: readonly ProcessEntry[], read: ProcessReader = readProcesses): boolean {
  const now = read(chain.map((entry) => entry.pid));
  return chain.every((entry, index) => {
    const current = now.get(entry.pid);
    if (!current || current.startTime !== entry.startTime || current.state?.startsWith("Z")) return false;
    return index === chain.length - 1 || current.ppid === entry.ppid;
  });
}

/**
 * Calls `onGone` once when a launcher above this process ends; returns the function that stops watching.
 * Watches nothing when there is no launcher above, when running `ps` is not allowed (the tasks allow it
 * with `--allow-run=ps`), or on a system without `ps`.
 */
export function watchLauncher(onGone: () => void, pollMs: number = LAUNCHER_POLL_MS): () => void {
  let chain: ProcessEntry[];
  try {
    // Never prompt for the permission: without it there is simply no watch.
    if (Deno.build.os === "windows") return () => {};
    if (Deno.permissions.querySync({ name: "run", command: "ps" }).state !== "granted") return () => {};
    chain = launcherChain(Deno.ppid);
  } catch {
    return () => {};
  }
  if (chain.length === 0) return () => {};
  const timer = setInterval(() => {
    let alive = true;
    try {
      alive = chainAlive(chain);
    } catch {
      // ps could not run this time (out of processes, say): look again at the next tick.
    }
    if (alive) return;
    clearInterval(timer);
    onGone();
  }, pollMs);
  // The watch alone must not keep the process running.
  Deno.unrefTimer(timer);
  return () => clearInterval(timer);
}
