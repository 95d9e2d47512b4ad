/**
 * A guarded HTTP listener: `Deno.serve` behind a TCP front that bounds what a network peer can hold.
 * `Deno.serve` alone waits forever for a request head that never completes, has no connection limit, and
 * stops (its `finished` rejects, which ends the process) when `accept` runs out of file descriptors. The
 * front (`Deno.listen`) accepts every connection itself and:
 * - refuses connections beyond `maxConnections`, first closing the oldest one that has no request in flight
 *   (a head still arriving, or an idle keep-alive), so a flood of half-open connections cannot lock others out;
 * - closes a connection (408) whose request head is not complete `headerTimeoutMs` after its first byte
 *   (after the accept, for the first request), and one whose response the peer has not read for
 *   {@link WRITE_STALL_MS};
 * - keeps its file descriptors within a budget below the process's limit (read from `/proc/self/limits` when
 *   permitted, else learnt from the first EMFILE), and survives `accept` failing with EMFILE: it closes the
 *   connection idle longest and accepts again;
 * - hands each complete connection to the real `Deno.serve`, bound to a private loopback port that answers
 *   only connections the front made, and restarts that server should it stop;
 * - answers 503 with `Retry-After` once `maxInflight` requests are being handled.
 * The handler sees the peer's own address in `info.remoteAddr` and the bytes the peer sent, `Host` included.
 *
 * @example
 * ```ts
 * import { serveGuarded } from "./net_guard.ts";
 * const server = serveGuarded(
 *   { hostname: "127.0.0.1", port: 0, limits: { maxConnections: 64, headerTimeoutMs: 5000, maxInflight: 32 } },
 *   (request, info) => new Response(`hello ${info.remoteAddr.hostname}`),
 * );
 * console.log(server.addr.port);
 * await server.shutdown();
 * ```
 *
 * @module
 */

/** The bounds a guarded listener enforces. */
export interface ListenLimits {
  /** Open connections at once; more are refused (after evicting an idle one if there is one). */
  maxConnections: number;
  /** Time a request head may take to arrive completely, in ms. */
  headerTimeoutMs: number;
  /** Requests handled at once; more are answered 503 with `Retry-After`. Long-lived event streams (GET
   * answered with `text/event-stream`) stop counting once their response starts. */
  maxInflight: number;
}

/** Defaults of {@link ListenLimits}, as `lib/config.ts` documents them. */
export const DEFAULT_LISTEN_LIMITS: ListenLimits = {
  maxConnections: 512,
  headerTimeoutMs: 10_000,
  maxInflight: 256,
};
/** A connection with nothing in flight and no byte from the peer for this long is closed. */
export const IDLE_TIMEOUT_MS = 5 * 60_000;
/** A connection whose peer has not taken a response byte for this long is closed. */
export const WRITE_STALL_MS = 60_000;
/** Largest request head accepted (431 beyond). */
export const MAX_HEAD_BYTES = 64 * 1024;

/** Options of {@link serveGuarded}. */
export interface GuardedServeOptions {
  hostname: string;
  port: number;
  limits?: Partial<ListenLimits>;
  /** The response to a request beyond `maxInflight` (status 503 and `Retry-After` are set on it). */
  busyResponse?: () => Response;
  /** As `Deno.serve`'s: answers a handler that threw. */
  onError?: (error: unknown) => Response | Promise<Response>;
  /** Receives one line per notable event (EMFILE, a restart of the inner server). */
  log?: (message: string) => void;
  /** Closes a connection whose peer has taken no response byte for this long (default {@link WRITE_STALL_MS}). */
  writeStallMs?: number;
  /** Closes a connection with nothing in flight and no byte for this long (default {@link IDLE_TIMEOUT_MS}). */
  idleTimeoutMs?: number;
}

/** A running guarded server. */
export interface GuardedServer {
  /** The address peers connect to. */
  readonly addr: Deno.NetAddr;
  /** The limits in force (`maxConnections` possibly lowered to fit the descriptor limit). */
  readonly limits: ListenLimits;
  /** Open connections and requests in flight now. */
  stats(): { connections: number; inflight: number };
  /** Stops accepting, lets requests in flight finish, then closes every connection. */
  shutdown(): Promise<void>;
}

const encoder = new TextEncoder();
const HEAD_END = [13, 10, 13, 10];

/**
 * File descriptors the guards of this process hold, and how many they may: shared by every guarded server.
 * The budget is the soft limit less a reserve when the limit can be read (Linux, with --allow-all: Deno
 * lets nothing less read /proc/self), else it is learnt from the first EMFILE.
 */
const descriptors = { used: 0, budget: Number.NaN };

/** The soft descriptor limit minus a reserve for files, outgoing connections and the runtime. */
function descriptorBudget(): number {
  try {
    const path = "/proc/self/limits";
    if (Deno.permissions.querySync({ name: "read", path }).state === "granted") {
      const line = /^Max open files\s+(\d+)/m.exec(Deno.readTextFileSync(path));
      if (line) return Math.max(24, Number(line[1]) - Math.max(64, Math.floor(Number(line[1]) / 8)));
    }
  } catch {
    // Not Linux, or not readable with the permissions granted.
  }
  return Number.POSITIVE_INFINITY;
}

/** After an EMFILE: what the guards hold now, less a margin, is what they may hold from now on. */
function learnBudget(): number {
  const margin = Math.max(8, Math.floor(descriptors.used / 8));
  descriptors.budget = Math.min(descriptors.budget, Math.max(6, descriptors.used - margin));
  return descriptors.budget;
}

function isOutOfDescriptors(error: unknown): boolean {
  return (error as { code?: string })?.code === "EMFILE" || (error as { code?: string })?.code === "ENFILE" ||
    /too many open files/i.test(String(error));
}

function response(status: number, reason: string, extra = ""): Uint8Array {
  return encoder.encode(
    `HTTP/1.1 ${status} ${reason}\r\nconnection: close\r\ncontent-length: 0\r\n${extra}\r\n`,
  );
}

const TIMEOUT = response(408, "Request Timeout");
const HEAD_TOO_LARGE = response(431, "Request Header Fields Too Large");
const UNAVAILABLE = response(503, "Service Unavailable", "retry-after: 1\r\n");

/** One peer connection and, once its head is complete, the connection to the inner server. */
class FrontConnection {
  readonly conn: Deno.TcpConn;
  readonly remoteAddr: Deno.NetAddr;
  upstream?: Deno.TcpConn;
  /** Requests of this connection the inner server is handling. */
  inflight = 0;
  /** When the current request head started arriving; undefined while none is. */
  headStartedAt?: number;
  /** Whether the peer has sent any byte yet (a pooled connection may be opened and written to later). */
  heardFrom = false;
  lastActive = Date.now();
  /** When the pending write to the peer started; undefined when none is pending. */
  writeStartedAt?: number;
  closed = false;
  #descriptors = 1;

  constructor(conn: Deno.TcpConn) {
    this.conn = conn;
    this.remoteAddr = conn.remoteAddr;
    this.headStartedAt = Date.now();
  }

  /** Whether closing it loses no request: nothing in flight. */
  get evictable(): boolean {
    return this.inflight === 0 && !this.closed;
  }

  claimUpstreamDescriptors(): boolean {
    if (descriptors.used + 2 > descriptors.budget) return false;
    descriptors.used += 2;
    this.#descriptors += 2;
    return true;
  }

  close(reply?: Uint8Array): void {
    if (this.closed) return;
    this.closed = true;
    if (reply) {
      // Best effort and never awaited: a peer that does not read must not hold the close.
      this.conn.write(reply).catch(() => {}).finally(() => closeQuietly(this.conn));
    } else closeQuietly(this.conn);
    if (this.upstream) closeQuietly(this.upstream);
    descriptors.used -= this.#descriptors;
    this.#descriptors = 0;
  }
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // Already closed.
  }
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await conn.write(bytes.subarray(offset));
}

/** Index just past the blank line ending an HTTP head in `bytes`, or -1. */
function headEnd(bytes: Uint8Array, from: number): number {
  for (let i = Math.max(0, from - 3); i + 3 < bytes.length; i++) {
    if (
      bytes[i] === HEAD_END[0] && bytes[i + 1] === HEAD_END[1] && bytes[i + 2] === HEAD_END[2] &&
      bytes[i + 3] === HEAD_END[3]
    ) return i + 4;
  }
  return -1;
}

/**
 * Serves `handler` on `hostname:port` behind the guard; throws as `Deno.listen` does (e.g.
 * `Deno.errors.AddrInUse`).
 */
export function serveGuarded(
  options: GuardedServeOptions,
  handler: Deno.ServeHandler<Deno.NetAddr>,
): GuardedServer {
  const limits: ListenLimits = { ...DEFAULT_LISTEN_LIMITS, ...options.limits };
  const log = options.log ?? (() => {});
  if (Number.isNaN(descriptors.budget)) descriptors.budget = descriptorBudget();
  const configuredConnections = limits.maxConnections;
  /** Each connection holds up to three descriptors: the peer's, and both ends of the inner connection. */
  const fitConnections = () => {
    const fitting = Math.max(1, Math.floor(descriptors.budget / 3));
    if (limits.maxConnections <= fitting) return;
    log(
      `connection limit lowered from ${configuredConnections} to ${fitting} to fit the process's open-file ` +
        "limit (raise it with ulimit -n)",
    );
    limits.maxConnections = fitting;
  };
  fitConnections();
  /** Out of descriptors: learn the budget, and close idle connections until the guards are within it. */
  const outOfDescriptors = () => {
    learnBudget();
    fitConnections();
    while (
      (connections.size > limits.maxConnections || descriptors.used + 3 > descriptors.budget) && evictOne()
    ) { /* evicting */ }
  };
  const listener = Deno.listen({ hostname: options.hostname, port: options.port, transport: "tcp" });
  const connections = new Set<FrontConnection>();
  /** Front connections by the local port of their inner connection, as the inner server sees them. */
  const byInnerPort = new Map<number, FrontConnection>();
  let inflight = 0;
  let stopping = false;

  const busy = (): Response => {
    const base = options.busyResponse?.() ??
      Response.json({ error: "The server is busy; retry shortly." }, { status: 503 });
    const headers = new Headers(base.headers);
    headers.set("retry-after", "1");
    return new Response(base.body, { status: 503, headers });
  };

  const inner: Deno.ServeHandler<Deno.NetAddr> = (request, info) => {
    const front = byInnerPort.get(info.remoteAddr.port);
    if (!front) {
      // Someone on this machine connected to the private port directly, around the limits.
      return new Response("Connect to the server's public address.", { status: 421 });
    }
    front.inflight++;
    front.headStartedAt = undefined;
    const finished = () => {
      front.inflight--;
      front.lastActive = Date.now();
    };
    info.completed.then(finished, finished);
    if (inflight >= limits.maxInflight) return busy();
    inflight++;
    let counted = true;
    const release = () => {
      if (counted) inflight--;
      counted = false;
    };
    info.completed.then(release, release);
    const answer = (result: Response) => {
      // A long-lived event stream is bounded by the session limits, not by this one.
      if (request.method === "GET" && result.headers.get("content-type")?.startsWith("text/event-stream")) {
        release();
      }
      return result;
    };
    try {
      const result = handler(request, { remoteAddr: front.remoteAddr, completed: info.completed });
      return result instanceof Response ? answer(result) : result.then(answer);
    } catch (error) {
      release();
      throw error;
    }
  };

  let innerServer = startInner();

  function startInner(): Deno.HttpServer<Deno.NetAddr> {
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: 0,
      onListen: () => {},
      onError: options.onError ?? ((error) => {
        log(`request failed: ${error instanceof Error ? error.message : error}`);
        return new Response("Internal Server Error", { status: 500 });
      }),
    }, inner);
    server.finished.catch((error) => {
      if (stopping) return;
      // Cannot happen while the budget holds; if it does, serve on, from a new inner server.
      log(`inner server stopped (${error instanceof Error ? error.message : error}); restarting it`);
      if (isOutOfDescriptors(error)) outOfDescriptors();
      innerServer = startInner();
    });
    return server;
  }

  /** Closes the connection idle longest (nothing in flight); false when every one has a request. */
  const evictOne = (): boolean => {
    let oldest: FrontConnection | undefined;
    for (const front of connections) {
      if (front.evictable && (!oldest || front.lastActive < oldest.lastActive)) oldest = front;
    }
    if (!oldest) return false;
    // A 408 only to a peer whose request head has begun: one that has sent nothing (a fresh or pooled
    // connection) would read it as the answer to the request it is about to write (RFC 9110 §15.5.9).
    drop(oldest, !oldest.upstream && oldest.heardFrom ? TIMEOUT : undefined);
    return true;
  };

  const drop = (front: FrontConnection, reply?: Uint8Array) => {
    if (!connections.delete(front)) return;
    if (front.upstream) byInnerPort.delete((front.upstream.localAddr as Deno.NetAddr).port);
    front.close(reply);
  };

  const writeStallMs = options.writeStallMs ?? WRITE_STALL_MS;
  const idleTimeoutMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  const shortest = Math.min(limits.headerTimeoutMs, writeStallMs, idleTimeoutMs);
  const sweepEvery = Math.min(1000, Math.max(25, Math.floor(shortest / 4)));
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const front of connections) {
      // A peer that stopped reading: what the server still has to send it is dropped with the connection.
      if (front.writeStartedAt !== undefined && now - front.writeStartedAt > writeStallMs) drop(front);
      else if (front.inflight > 0) continue;
      else if (front.headStartedAt !== undefined && now - front.headStartedAt > limits.headerTimeoutMs) {
        // Closed either way; the 408 only to a peer that began a request (see evictOne).
        drop(front, front.heardFrom || front.upstream ? TIMEOUT : undefined);
      } else if (front.headStartedAt === undefined && now - front.lastActive > idleTimeoutMs) drop(front);
    }
  }, sweepEvery);

  const serveConnection = async (front: FrontConnection) => {
    // 1. The first request head, within the time limit (the sweeper closes it when late).
    let buffer = new Uint8Array(4096);
    let length = 0;
    let end = -1;
    while (end < 0) {
      if (length === buffer.length) {
        if (length >= MAX_HEAD_BYTES) return drop(front, HEAD_TOO_LARGE);
        const grown = new Uint8Array(Math.min(MAX_HEAD_BYTES, length * 2));
        grown.set(buffer);
        buffer = grown;
      }
      let n: number | null;
      try {
        n = await front.conn.read(buffer.subarray(length));
      } catch {
        n = null;
      }
      if (n === null || front.closed) return drop(front);
      if (n > 0) front.heardFrom = true;
      end = headEnd(buffer.subarray(0, length + n), length);
      length += n;
    }
    // 2. A connection to the inner server.
    if (!front.claimUpstreamDescriptors() && !(evictOne() && front.claimUpstreamDescriptors())) {
      return drop(front, UNAVAILABLE);
    }
    let upstream: Deno.TcpConn;
    try {
      upstream = await Deno.connect({ hostname: "127.0.0.1", port: innerServer.addr.port });
    } catch (error) {
      log(`could not reach the inner server: ${error instanceof Error ? error.message : error}`);
      if (isOutOfDescriptors(error)) outOfDescriptors();
      return drop(front, UNAVAILABLE);
    }
    if (front.closed) return closeQuietly(upstream);
    // The relay writes what arrives as it arrives: Nagle's algorithm would hold a response's second
    // small write for the peer's delayed ACK (40 ms).
    upstream.setNoDelay(true);
    front.conn.setNoDelay(true);
    front.upstream = upstream;
    byInnerPort.set((upstream.localAddr as Deno.NetAddr).port, front);
    // 3. Bytes both ways until either side ends.
    const toInner = (async () => {
      try {
        await writeAll(upstream, buffer.subarray(0, length));
        const chunk = new Uint8Array(16 * 1024);
        for (;;) {
          const n = await front.conn.read(chunk);
          if (n === null) break;
          front.lastActive = Date.now();
          // Bytes with nothing in flight start the next request's head.
          if (front.inflight === 0) front.headStartedAt ??= front.lastActive;
          await writeAll(upstream, chunk.subarray(0, n));
        }
        await upstream.closeWrite();
      } catch {
        drop(front);
      }
    })();
    const toPeer = (async () => {
      try {
        const chunk = new Uint8Array(16 * 1024);
        for (;;) {
          const n = await upstream.read(chunk);
          if (n === null) break;
          front.writeStartedAt = Date.now();
          await writeAll(front.conn, chunk.subarray(0, n));
          front.writeStartedAt = undefined;
        }
      } catch {
        // Either side went away.
      }
      drop(front);
    })();
    await Promise.all([toInner, toPeer]);
  };

  let acceptFailures = 0;
  let lastAcceptLog = 0;
  const acceptLoop = (async () => {
    while (!stopping) {
      let conn: Deno.TcpConn;
      try {
        conn = await listener.accept();
      } catch (error) {
        if (
          stopping || error instanceof Deno.errors.BadResource || error instanceof Deno.errors.Interrupted
        ) {
          break;
        }
        // EMFILE and the like: make room, give the process a moment, accept again.
        if (isOutOfDescriptors(error)) outOfDescriptors();
        acceptFailures++;
        if (Date.now() - lastAcceptLog > 10_000) {
          lastAcceptLog = Date.now();
          log(
            `accept failed ${acceptFailures} time(s) (${
              error instanceof Error ? error.message : error
            }); closing idle connections to make room`,
          );
          acceptFailures = 0;
        }
        const evicted = evictOne();
        await new Promise((resolve) => setTimeout(resolve, evicted ? 5 : 250));
        continue;
      }
      if (
        // Room for this connection and, later, the two descriptors of its inner connection.
        (connections.size >= limits.maxConnections || descriptors.used + 3 > descriptors.budget) &&
        !evictOne()
      ) {
        conn.write(UNAVAILABLE).catch(() => {}).finally(() => closeQuietly(conn));
        continue;
      }
      descriptors.used += 1;
      const front = new FrontConnection(conn);
      connections.add(front);
      void serveConnection(front).catch(() => drop(front));
    }
  })();

  return {
    addr: listener.addr as Deno.NetAddr,
    limits,
    stats: () => ({ connections: connections.size, inflight }),
    async shutdown() {
      if (stopping) return;
      stopping = true;
      clearInterval(sweeper);
      try {
        listener.close();
      } catch {
        // Already closed.
      }
      await acceptLoop;
      // Connections without a request go now; the others when the inner server has answered them.
      for (const front of connections) if (front.evictable) drop(front);
      await innerServer.shutdown();
      for (const front of connections) drop(front);
    },
  };
}
