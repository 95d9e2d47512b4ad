/**
 * How a guarded listener (`lib/net/net_guard.ts`) turns away a connection beyond its connection limit: with an
 * HTTP answer a client can act on (503, `Retry-After`, a JSON body saying which limit and how to raise it),
 * never with a reset. Writing the answer at once and closing is not enough: a socket closed with the
 * peer's request still unread sends a reset, and the peer's kernel then discards the 503 it had not yet
 * handed to the client, which reports only "fetch failed". So the request head is read first, the answer
 * written, our side half-closed, and whatever else the peer sends (a body) read until it closes.
 *
 * Each refusal holds one descriptor for at most {@link REFUSAL_HEAD_MS} + {@link REFUSAL_DRAIN_MS}; at most
 * {@link Refusals.capacity} are held at once, and beyond that (a flood) a connection is closed at once.
 *
 * @example
 * ```ts
 * import { Refusals } from "./net_guard_refusal.ts";
 * const refusals = new Refusals(64, () => '{"error":"at the connection limit"}');
 * // in an accept loop, beyond the limit: refusals.refuse(conn);
 * refusals.closeAll();
 * ```
 *
 * @module
 */
import { closeQuietly, descriptors, MAX_HEAD_BYTES } from "./net_guard_connection.ts";

/** Time a refused peer has to send its request head; one that sends nothing gets no answer. */
export const REFUSAL_HEAD_MS = 2_000;
/** Time a refused peer has, after the answer, to close (its unsent body is read and dropped meanwhile). */
export const REFUSAL_DRAIN_MS = 1_000;
/** What `Retry-After` tells a refused client, in seconds. */
export const REFUSAL_RETRY_AFTER_SECONDS = 1;

const encoder = new TextEncoder();
const HEAD_END = "\r\n\r\n";

/** The bytes of the 503 answering a connection beyond the limit. */
export function refusalBytes(body: string): Uint8Array {
  const content = encoder.encode(body);
  const head = "HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-type: application/json\r\n" +
    `retry-after: ${REFUSAL_RETRY_AFTER_SECONDS}\r\ncontent-length: ${content.length}\r\n\r\n`;
  const bytes = new Uint8Array(encoder.encode(head).length + content.length);
  bytes.set(encoder.encode(head));
  bytes.set(content, bytes.length - content.length);
  return bytes;
}

/** The connections being turned away, bounded in number and time. */
export class Refusals {
  readonly capacity: number;
  readonly #body: () => string;
  readonly #held = new Set<Deno.TcpConn>();

  /** `body` is the JSON text of the answer, read when a refusal is written. */
  constructor(capacity: number, body: () => string) {
    this.capacity = capacity;
    this.#body = body;
  }

  get size(): number {
    return this.#held.size;
  }

  /** Answers `conn` with the 503 once its request head is in, then closes it; never throws. */
  refuse(conn: Deno.TcpConn): void {
    if (this.#held.size >= this.capacity || descriptors.used + 1 > descriptors.budget) {
      closeQuietly(conn);
      return;
    }
    this.#held.add(conn);
    descriptors.used += 1;
    void this.#answer(conn).catch(() => {}).finally(() => {
      if (this.#held.delete(conn)) descriptors.used -= 1;
      closeQuietly(conn);
    });
  }

  /** Closes every refusal still held (the listener is shutting down). */
  closeAll(): void {
    for (const conn of this.#held) {
      this.#held.delete(conn);
      descriptors.used -= 1;
      closeQuietly(conn);
    }
  }

  async #answer(conn: Deno.TcpConn): Promise<void> {
    const deadline = Date.now() + REFUSAL_HEAD_MS;
    const decoder = new TextDecoder();
    const chunk = new Uint8Array(4096);
    let head = "";
    let received = 0;
    while (!head.includes(HEAD_END)) {
      const n = await readBefore(conn, chunk, deadline);
      // A peer that sent nothing (a client's spare pooled connection) would take an answer for the reply
      // to the request it writes later: it is closed unanswered, as an evicted quiet connection is.
      if (n === null || (n === 0 && received === 0)) return;
      if (n === 0) break; // Out of time mid-head: answered all the same.
      received += n;
      head = (head + decoder.decode(chunk.subarray(0, n), { stream: true })).slice(-MAX_HEAD_BYTES);
    }
    await writeAllBefore(conn, refusalBytes(this.#body()), Date.now() + REFUSAL_DRAIN_MS);
    await conn.closeWrite();
    const drainUntil = Date.now() + REFUSAL_DRAIN_MS;
    while ((await readBefore(conn, chunk, drainUntil)) !== null && Date.now() < drainUntil) { /* dropped */ }
  }
}

/** Bytes read, null at the peer's end (or an error), 0 once `deadline` has passed. */
async function readBefore(conn: Deno.TcpConn, into: Uint8Array, deadline: number): Promise<number | null> {
  const left = deadline - Date.now();
  if (left <= 0) return 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<0>((resolve) => timer = setTimeout(() => resolve(0), left));
  try {
    return await Promise.race([conn.read(into).catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function writeAllBefore(conn: Deno.TcpConn, bytes: Uint8Array, deadline: number): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error("the refused peer does not read");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => timer = setTimeout(() => reject(new Error("late")), left));
    try {
      offset += await Promise.race([conn.write(bytes.subarray(offset)), late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
