/**
 * Where a process tree sends traffic, recorded by `strace` (the kernel's view of every `connect`, `sendto`,
 * `sendmsg` and `sendmmsg` of the process and its children): the loopback-only check of the tests. It only
 * watches: it sends nothing itself, and the traced process meets the same network it would untraced.
 *
 * A destination is off loopback when its address is outside 127.0.0.0/8 and ::1 (an IPv4-mapped
 * `::ffff:127.x.x.x` counts as loopback); a DNS query is any datagram or connection to port 53, on any
 * address, or a connection to the name-service cache daemon's socket (glibc asks it first).
 *
 * @example
 * ```ts
 * import { STRACE, offLoopback, tracedCommand } from "./loopback_watch.ts";
 * const traced = tracedCommand(["deno", "run", "main.ts", "--version"], "/tmp/trace.txt");
 * await new Deno.Command(traced[0], { args: traced.slice(1) }).output();
 * console.log(offLoopback(await Deno.readTextFile("/tmp/trace.txt")));
 * ```
 *
 * @module
 */

/** Where strace is expected (the project's machine image has it there). */
export const STRACE = "/usr/bin/strace";

/** One destination a traced process sent to or connected to. */
export interface Destination {
  syscall: string;
  family: "inet" | "inet6" | "unix";
  /** The IP address, or the socket path of a Unix socket. */
  address: string;
  port?: number;
  /** The trace line it was read from. */
  line: string;
}

/** Whether strace can be run here. */
export function straceAvailable(): boolean {
  try {
    return Deno.statSync(STRACE).isFile;
  } catch {
    return false;
  }
}

/** `program …args` under strace, writing the trace of every process of the tree to `traceFile`. */
export function tracedCommand(argv: string[], traceFile: string): string[] {
  // -s 64: enough of a DNS query to read the name asked.
  return [
    STRACE,
    "-f",
    "-qq",
    "-s",
    "64",
    "-e",
    "trace=connect,sendto,sendmsg,sendmmsg",
    "-o",
    traceFile,
    "--",
    ...argv,
  ];
}

const INET = /sa_family=AF_INET, sin_port=htons\((\d+)\), sin_addr=inet_addr\("([^"]+)"\)/g;
const INET6 = /sa_family=AF_INET6, sin6_port=htons\((\d+)\),[^}]*?inet_pton\(AF_INET6, "([^"]+)"/g;
const UNIX = /sa_family=AF_UNIX, sun_path=(@?"[^"]*")/g;
/** Name-service sockets: asking them is a DNS lookup by another way. */
const NAME_SERVICE_SOCKETS = ["/var/run/nscd/socket", "/run/nscd/socket"];

/** Every IP or Unix socket destination in a strace output. */
export function destinations(trace: string): Destination[] {
  const found: Destination[] = [];
  for (const line of trace.split("\n")) {
    const syscall = /^\d+\s+(\w+)\(/.exec(line)?.[1] ?? /^(\w+)\(/.exec(line)?.[1] ?? "?";
    for (const match of line.matchAll(INET)) {
      found.push({ syscall, family: "inet", address: match[2], port: Number(match[1]), line });
    }
    for (const match of line.matchAll(INET6)) {
      found.push({ syscall, family: "inet6", address: match[2], port: Number(match[1]), line });
    }
    for (const match of line.matchAll(UNIX)) {
      found.push({ syscall, family: "unix", address: JSON.parse(match[1].replace(/^@/, "")), line });
    }
  }
  return found;
}

function isLoopback(destination: Destination): boolean {
  const address = destination.address.toLowerCase();
  if (destination.family === "inet") return address.startsWith("127.");
  return address === "::1" || address.startsWith("::ffff:127.");
}

/** Whether a destination is a name lookup: port 53 anywhere, or the name-service cache's socket. */
export function isDnsQuery(destination: Destination): boolean {
  if (destination.family === "unix") return NAME_SERVICE_SOCKETS.includes(destination.address);
  return destination.port === 53;
}

/**
 * The destinations of `trace` the loopback-only rule forbids: any IP address off loopback, and any DNS
 * query. Unix sockets other than the name-service cache are local and allowed.
 */
export function offLoopback(trace: string): Destination[] {
  return destinations(trace).filter((destination) =>
    isDnsQuery(destination) || (destination.family !== "unix" && !isLoopback(destination))
  );
}
