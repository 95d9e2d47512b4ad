/**
 * The connections of a guarded listener (`lib/net/net_guard.ts`): the file descriptors all guards of the process
 * share, one peer connection with its inner connection, reading a request head within bounds, and relaying
 * bytes both ways once the inner server has the connection.
 *
 * @module
 */
/** Largest request head accepted (431 beyond). */
export const MAX_HEAD_BYTES = 64 * 1024;

const encoder = new TextEncoder();
const HEAD_END = [13, 10, 13, 10];

/**
 * File descriptors the guards of this process hold, and how many they may: shared by every guarded server.
 * The budget is the soft limit less a reserve when the limit can be read (Linux, with --allow-all: Deno
 * lets nothing less read /proc/self), else it is learnt from the first EMFILE.
 */
export const descriptors = { used: 0, budget: Number.NaN };

/** The soft descriptor limit minus a reserve for files, outgoing connections and the runtime. */
export function descriptorBudget(): number {
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
export function learnBudget(): number {
  const margin = Math.max(8, Math.floor(descriptors.used / 8));
  descriptors.budget = Math.min(descriptors.budget, Math.max(6, descriptors.used - margin));
  return descriptors.budget;
}

export function isOutOfDescriptors(error: unknown): boolean {
  return (error as { code?: string })?.code === "EMFILE" || (error as { code?: string })?.code === "ENFILE" ||
    /too many open files/i.test(String(error));
}

function response(status: number, reason: string, extra = ""): Uint8Array {
  return encoder.encode(
    `HTTP/1.1 ${status} ${reason}\r\nconnection: close\r\ncontent-length: 0\r\n${extra}\r\n`,
  );
}

export const TIMEOUT = response(408, "Request Timeout");
export const HEAD_TOO_LARGE = response(431, "Request Header Fields Too Large");
export const UNAVAILABLE = response(503, "Service Unavailable", "retry-after: 1\r\n");

/** One peer connection and, once its head is complete, the connection to the inner server. */
export class FrontConnection {
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

export function closeQuietly(conn: Deno.Conn): void {
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
 * Reads until the first request head is complete: the bytes read (head and anything after it), or the
 * reply to close with (431 past {@link MAX_HEAD_BYTES}; none when the peer left). The sweeper closes a
 * connection whose head is late, which ends the read.
 */
export async function readFirstHead(front: FrontConnection): Promise<Uint8Array | { reply?: Uint8Array }> {
  let buffer = new Uint8Array(4096);
  let length = 0;
  let end = -1;
  while (end < 0) {
    if (length === buffer.length) {
      if (length >= MAX_HEAD_BYTES) return { reply: HEAD_TOO_LARGE };
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
    if (n === null || front.closed) return {};
    if (n > 0) front.heardFrom = true;
    end = headEnd(buffer.subarray(0, length + n), length);
    length += n;
  }
  return buffer.subarray(0, length);
}

/** Bytes both ways between the peer and the inner server until either side ends; then `drop`. */
export async function relay(
  front: FrontConnection,
  upstream: Deno.TcpConn,
  head: Uint8Array,
  drop: () => void,
) {
  const toInner = (async () => {
    try {
      await writeAll(upstream, head);
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
      drop();
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
    drop();
  })();
  await Promise.all([toInner, toPeer]);
}
