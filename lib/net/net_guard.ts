/**
 * A guarded HTTP listener: `Deno.serve` behind a TCP front that bounds what a network peer can hold.
 * `Deno.serve` alone waits forever for a request head that never completes, has no connection limit, and
 * stops (its `finished` rejects, which ends the process) when `accept` runs out of file descriptors. The
 * front (`Deno.listen`) accepts every connection itself and:
 * - refuses connections beyond `maxConnections`, first closing the oldest one that has no request in flight
 *   (a head still arriving or none yet; a kept-alive connection only once idle a second), so a flood of
 *   half-open connections cannot lock others out;
 *   a refused connection's request gets 503 with `Retry-After` and a JSON body naming the limit
 *   (`lib/net/net_guard_refusal.ts`), never a reset;
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
import {
  closeQuietly,
  descriptorBudget,
  descriptors,
  FrontConnection,
  isOutOfDescriptors,
  learnBudget,
  MAX_HEAD_BYTES,
  readFirstHead,
  relay,
  TIMEOUT,
  UNAVAILABLE,
} from "./net_guard_connection.ts";
import { outsideAnyContext } from "../core/async_context.ts";
import { Refusals } from "./net_guard_refusal.ts";

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

/** Defaults of {@link ListenLimits}, as `lib/config/config.ts` documents them. */
export const DEFAULT_LISTEN_LIMITS: ListenLimits = {
  // 200 SDK sessions hold about two each (a GET event stream and a POST), more while calls overlap.
  maxConnections: 2048,
  headerTimeoutMs: 10_000,
  maxInflight: 256,
};
/** A connection with nothing in flight and no byte from the peer for this long is closed. */
export const IDLE_TIMEOUT_MS = 5 * 60_000;
/** On shutdown, requests in flight this long after the listener closed are cut off. */
export const SHUTDOWN_GRACE_MS = 2_000;
/** A kept-alive connection idle this long may be closed to make room for a new one. */
export const EVICTABLE_AFTER_MS = 1_000;
/** A connection whose peer has not taken a response byte for this long is closed. */
export const WRITE_STALL_MS = 60_000;
export { MAX_HEAD_BYTES };

/** Options of {@link serveGuarded}. */
export interface GuardedServeOptions {
  hostname: string;
  port: number;
  limits?: Partial<ListenLimits>;
  /** The response to a request beyond `maxInflight` (status 503 and `Retry-After` are set on it). */
  busyResponse?: () => Response;
  /** The JSON body of the 503 answering a connection beyond `maxConnections` (it is given the limit). */
  refusedBody?: (maxConnections: number) => string;
  /** As `Deno.serve`'s: answers a handler that threw. */
  onError?: (error: unknown) => Response | Promise<Response>;
  /** Receives one line per notable event (EMFILE, a restart of the inner server). */
  log?: (message: string) => void;
  /** Closes a connection whose peer has taken no response byte for this long (default {@link WRITE_STALL_MS}). */
  writeStallMs?: number;
  /**
   * On shutdown, requests still in flight this long after the listener closed have their connections
   * closed (default {@link SHUTDOWN_GRACE_MS}): a peer trickling a body must not hold the stop.
   */
  shutdownGraceMs?: number;
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

/**
 * Serves `handler` on `hostname:port` behind the guard; throws as `Deno.listen` does (e.g.
 * `Deno.errors.AddrInUse`).
 */
export function serveGuarded(
  options: GuardedServeOptions,
  handler: Deno.ServeHandler<Deno.NetAddr>,
): GuardedServer {
  return new GuardedListener(options, handler);
}

function defaultRefusedBody(maxConnections: number): string {
  return JSON.stringify({
    error: `The server is at its connection limit (${maxConnections} open connections); retry shortly.`,
  });
}

/** The front: accepts, bounds and sweeps peer connections, and runs the inner `Deno.serve`. */
class GuardedListener implements GuardedServer {
  readonly addr: Deno.NetAddr;
  readonly limits: ListenLimits;
  readonly #options: GuardedServeOptions;
  readonly #handler: Deno.ServeHandler<Deno.NetAddr>;
  readonly #log: (message: string) => void;
  readonly #configuredConnections: number;
  readonly #listener: Deno.TcpListener;
  readonly #connections = new Set<FrontConnection>();
  /** Front connections by the local port of their inner connection, as the inner server sees them. */
  readonly #byInnerPort = new Map<number, FrontConnection>();
  readonly #writeStallMs: number;
  readonly #idleTimeoutMs: number;
  readonly #sweeper: ReturnType<typeof setInterval>;
  readonly #acceptLoop: Promise<void>;
  readonly #refusals: Refusals;
  #innerServer: Deno.HttpServer<Deno.NetAddr>;
  #inflight = 0;
  #stopping = false;
  #acceptFailures = 0;
  #lastAcceptLog = 0;

  constructor(options: GuardedServeOptions, handler: Deno.ServeHandler<Deno.NetAddr>) {
    this.#options = options;
    this.#handler = handler;
    this.limits = { ...DEFAULT_LISTEN_LIMITS, ...options.limits };
    this.#log = options.log ?? (() => {});
    if (Number.isNaN(descriptors.budget)) descriptors.budget = descriptorBudget();
    this.#configuredConnections = this.limits.maxConnections;
    this.#fitConnections();
    const refusedBody = options.refusedBody ?? defaultRefusedBody;
    // Room to answer a burst beyond the limit; a flood beyond that is closed unanswered.
    this.#refusals = new Refusals(
      Math.max(64, Math.floor(this.limits.maxConnections / 4)),
      () => refusedBody(this.limits.maxConnections),
    );
    this.#listener = Deno.listen({ hostname: options.hostname, port: options.port, transport: "tcp" });
    this.addr = this.#listener.addr as Deno.NetAddr;
    this.#innerServer = this.#startInner();
    this.#writeStallMs = options.writeStallMs ?? WRITE_STALL_MS;
    this.#idleTimeoutMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
    const shortest = Math.min(this.limits.headerTimeoutMs, this.#writeStallMs, this.#idleTimeoutMs);
    this.#sweeper = setInterval(() => this.#sweep(), Math.min(1000, Math.max(25, Math.floor(shortest / 4))));
    this.#acceptLoop = this.#acceptAll();
  }

  stats(): { connections: number; inflight: number } {
    return { connections: this.#connections.size, inflight: this.#inflight };
  }

  async shutdown(): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    clearInterval(this.#sweeper);
    try {
      this.#listener.close();
    } catch {
      // Already closed.
    }
    await this.#acceptLoop;
    this.#refusals.closeAll();
    // Connections without a request go now; the others when the inner server has answered them, or
    // after the grace: a handler still reading a body then sees its peer gone and ends.
    for (const front of this.#connections) if (front.evictable) this.#drop(front);
    const grace = setTimeout(() => {
      for (const front of this.#connections) this.#drop(front);
    }, this.#options.shutdownGraceMs ?? SHUTDOWN_GRACE_MS);
    await this.#innerServer.shutdown();
    clearTimeout(grace);
    for (const front of this.#connections) this.#drop(front);
  }

  /** Each connection holds up to three descriptors: the peer's, and both ends of the inner connection. */
  #fitConnections(): void {
    const fitting = Math.max(1, Math.floor(descriptors.budget / 3));
    if (this.limits.maxConnections <= fitting) return;
    // The default adapts to the machine quietly; a value someone chose is not lowered without a word.
    if (this.#configuredConnections !== DEFAULT_LISTEN_LIMITS.maxConnections) {
      this.#log(
        `connection limit lowered from ${this.#configuredConnections} to ${fitting} to fit the process's ` +
          "open-file limit (raise it with ulimit -n)",
      );
    }
    this.limits.maxConnections = fitting;
  }

  /** Out of descriptors: learn the budget, and close idle connections until the guards are within it. */
  #outOfDescriptors(): void {
    learnBudget();
    this.#fitConnections();
    while (
      (this.#connections.size > this.limits.maxConnections || descriptors.used + 3 > descriptors.budget) &&
      this.#evictOne()
    ) { /* evicting */ }
  }

  #busy(): Response {
    const base = this.#options.busyResponse?.() ??
      Response.json({ error: "The server is busy; retry shortly." }, { status: 503 });
    const headers = new Headers(base.headers);
    headers.set("retry-after", "1");
    return new Response(base.body, { status: 503, headers });
  }

  /** The inner server's handler: counts requests per connection and in all, then calls the real handler. */
  #inner = (request: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>): Response | Promise<Response> => {
    const front = this.#byInnerPort.get(info.remoteAddr.port);
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
    if (this.#inflight >= this.limits.maxInflight) return this.#busy();
    this.#inflight++;
    let counted = true;
    const release = () => {
      if (counted) this.#inflight--;
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
      // Each request starts in no call's async context, whatever context Deno was left in (async_context.ts).
      const result = outsideAnyContext(() =>
        this.#handler(request, { remoteAddr: front.remoteAddr, completed: info.completed })
      );
      return result instanceof Response ? answer(result) : result.then(answer);
    } catch (error) {
      release();
      throw error;
    }
  };

  #startInner(): Deno.HttpServer<Deno.NetAddr> {
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: 0,
      onListen: () => {},
      onError: this.#options.onError ?? ((error) => {
        this.#log(`request failed: ${error instanceof Error ? error.message : error}`);
        return new Response("Internal Server Error", { status: 500 });
      }),
    }, this.#inner);
    server.finished.catch((error) => {
      if (this.#stopping) return;
      // Cannot happen while the budget holds; if it does, serve on, from a new inner server.
      this.#log(`inner server stopped (${error instanceof Error ? error.message : error}); restarting it`);
      if (isOutOfDescriptors(error)) this.#outOfDescriptors();
      this.#innerServer = this.#startInner();
    });
    return server;
  }

  /**
   * Closes the connection idle longest (nothing in flight); false when there is none. With `minIdleMs` (to
   * make room for a newcomer), a connection that has not yet been handed a request goes at any age (a flood
   * of half-open connections must not lock others out), but a kept-alive one only once idle that long: a
   * client reuses its pooled connection at any moment, and a request written as it closes fails with no
   * answer ("fetch failed"), where the newcomer refused gets a 503 that says to retry.
   */
  #evictOne(minIdleMs = 0): boolean {
    const idleSince = Date.now() - minIdleMs;
    let oldest: FrontConnection | undefined;
    for (const front of this.#connections) {
      const recentlyUsed = front.upstream !== undefined && front.lastActive > idleSince;
      if (front.evictable && !recentlyUsed && (!oldest || front.lastActive < oldest.lastActive)) {
        oldest = front;
      }
    }
    if (!oldest) return false;
    // A 408 only to a peer whose request head has begun: one that has sent nothing (a fresh or pooled
    // connection) would read it as the answer to the request it is about to write (RFC 9110 §15.5.9).
    this.#drop(oldest, !oldest.upstream && oldest.heardFrom ? TIMEOUT : undefined);
    return true;
  }

  #drop(front: FrontConnection, reply?: Uint8Array): void {
    if (!this.#connections.delete(front)) return;
    if (front.upstream) this.#byInnerPort.delete((front.upstream.localAddr as Deno.NetAddr).port);
    front.close(reply);
  }

  #sweep(): void {
    const now = Date.now();
    for (const front of this.#connections) {
      // A peer that stopped reading: what the server still has to send it is dropped with the connection.
      if (front.writeStartedAt !== undefined && now - front.writeStartedAt > this.#writeStallMs) {
        this.#drop(front);
      } else if (front.inflight > 0) continue;
      else if (front.headStartedAt !== undefined && now - front.headStartedAt > this.limits.headerTimeoutMs) {
        // Closed either way; the 408 only to a peer that began a request (see #evictOne).
        this.#drop(front, front.heardFrom || front.upstream ? TIMEOUT : undefined);
      } else if (front.headStartedAt === undefined && now - front.lastActive > this.#idleTimeoutMs) {
        this.#drop(front);
      }
    }
  }

  /** The first request head within its time, a connection to the inner server, then the relay. */
  async #serveConnection(front: FrontConnection): Promise<void> {
    const head = await readFirstHead(front);
    if (!(head instanceof Uint8Array)) return this.#drop(front, head.reply);
    if (
      !front.claimUpstreamDescriptors() &&
      !(this.#evictOne(EVICTABLE_AFTER_MS) && front.claimUpstreamDescriptors())
    ) {
      return this.#drop(front, UNAVAILABLE);
    }
    let upstream: Deno.TcpConn;
    try {
      upstream = await Deno.connect({ hostname: "127.0.0.1", port: this.#innerServer.addr.port });
    } catch (error) {
      this.#log(`could not reach the inner server: ${error instanceof Error ? error.message : error}`);
      if (isOutOfDescriptors(error)) this.#outOfDescriptors();
      return this.#drop(front, UNAVAILABLE);
    }
    if (front.closed) return closeQuietly(upstream);
    // The relay writes what arrives as it arrives: Nagle's algorithm would hold a response's second
    // small write for the peer's delayed ACK (40 ms).
    upstream.setNoDelay(true);
    front.conn.setNoDelay(true);
    front.upstream = upstream;
    this.#byInnerPort.set((upstream.localAddr as Deno.NetAddr).port, front);
    await relay(front, upstream, head, () => this.#drop(front));
  }

  async #acceptAll(): Promise<void> {
    while (!this.#stopping) {
      let conn: Deno.TcpConn;
      try {
        conn = await this.#listener.accept();
      } catch (error) {
        if (
          this.#stopping || error instanceof Deno.errors.BadResource ||
          error instanceof Deno.errors.Interrupted
        ) {
          break;
        }
        await this.#acceptFailed(error);
        continue;
      }
      if (
        // Room for this connection and, later, the two descriptors of its inner connection.
        (this.#connections.size >= this.limits.maxConnections || descriptors.used + 3 > descriptors.budget) &&
        !this.#evictOne(EVICTABLE_AFTER_MS)
      ) {
        this.#refusals.refuse(conn);
        continue;
      }
      descriptors.used += 1;
      const front = new FrontConnection(conn);
      this.#connections.add(front);
      void this.#serveConnection(front).catch(() => this.#drop(front));
    }
  }

  /** EMFILE and the like: make room, give the process a moment, and let the loop accept again. */
  async #acceptFailed(error: unknown): Promise<void> {
    if (isOutOfDescriptors(error)) this.#outOfDescriptors();
    this.#acceptFailures++;
    if (Date.now() - this.#lastAcceptLog > 10_000) {
      this.#lastAcceptLog = Date.now();
      this.#log(
        `accept failed ${this.#acceptFailures} time(s) (${
          error instanceof Error ? error.message : error
        }); closing idle connections to make room`,
      );
      this.#acceptFailures = 0;
    }
    const evicted = this.#evictOne();
    await new Promise((resolve) => setTimeout(resolve, evicted ? 5 : 250));
  }
}
