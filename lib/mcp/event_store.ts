/**
 * The events of streamable HTTP sessions, kept so a client whose stream broke can resume it: every SSE
 * event the server sends carries an id, and a `GET` with `Last-Event-ID` replays the events of that
 * stream sent after it (MCP 2025-11-25, basic/transports "Resumability and Redelivery"; the SDK's
 * `WebStandardStreamableHTTPServerTransport` takes a store of this shape as its `eventStore`).
 *
 * The store is bounded twice: each session keeps at most {@link EventStoreLimits.sessionBytes} of events
 * and all sessions together at most {@link EventStoreLimits.totalBytes}; past either, the oldest events go
 * first. Event ids are `<random store id>:<sequence>`, so an id says neither which session it came from
 * nor lets a client guess another session's, and a session can tell an id it issued and has since
 * dropped (answered "no longer held") from one it never issued.
 *
 * A stream whose requests have all been answered is "finished": resuming it needs only the held events,
 * and the connection can close after them (the SDK's transport would keep a resumed stream open for
 * messages that will never come). The store learns a POST stream's request ids from
 * {@link SessionEventStore.expectStream}, called just before the transport opens the stream.
 *
 * @example
 * ```ts
 * import { ResumableEvents } from "./event_store.ts";
 * const events = new ResumableEvents({ sessionBytes: 4096, totalBytes: 65536 });
 * const store = events.forSession();
 * const first = await store.storeEvent("stream-1", { jsonrpc: "2.0", method: "notifications/progress" });
 * await store.storeEvent("stream-1", { jsonrpc: "2.0", id: 1, result: {} });
 * const replayed: unknown[] = [];
 * await store.replayEventsAfter(first, { send: (_id, message) => Promise.resolve(void replayed.push(message)) });
 * console.log(replayed.length); // 1
 * ```
 *
 * @module
 */
import type { JSONRPCMessage } from "../deps/mcp_sdk.ts";

export interface EventStoreLimits {
  /** Bytes of events one session keeps; its oldest are dropped past this. */
  sessionBytes: number;
  /** Bytes of events all sessions keep together; the oldest of any session are dropped past this. */
  totalBytes: number;
}

/**
 * 1 MiB a session covers a long import's progress for minutes (a notification is ~200 bytes, four a
 * second at most); 64 MiB in all keeps a busy server's memory bounded whatever its clients do.
 */
export const DEFAULT_EVENT_STORE_LIMITS: Readonly<EventStoreLimits> = Object.freeze({
  sessionBytes: 1024 * 1024,
  totalBytes: 64 * 1024 * 1024,
});

/** What an event costs beyond its JSON: its id, its map entries. Tiny events still count. */
const EVENT_OVERHEAD_BYTES = 96;
/** Longest part of a client's Last-Event-ID quoted back in an error. */
const QUOTED_ID_CHARS = 80;

interface StoredEvent {
  id: string;
  streamId: string;
  sequence: number;
  message: JSONRPCMessage;
  bytes: number;
  owner: SessionEventStore;
}

/** Why a `Last-Event-ID` cannot be replayed: an HTTP status and a message for the client. */
export interface ReplayRefusal {
  status: number;
  message: string;
}

/** The events of every session of one server, under the total bound. */
export class ResumableEvents {
  readonly limits: EventStoreLimits;
  /** Every held event, oldest first: the order the total bound drops them in. */
  readonly #events = new Map<string, StoredEvent>();
  #bytes = 0;

  constructor(limits: Partial<EventStoreLimits> = {}) {
    this.limits = { ...DEFAULT_EVENT_STORE_LIMITS, ...limits };
    for (const [name, value] of Object.entries(this.limits)) {
      if (!Number.isSafeInteger(value) || value < 1) {
        throw new RangeError(`Event store limit ${name} must be a positive whole number of bytes.`);
      }
    }
  }

  /** A store for one new session. */
  forSession(): SessionEventStore {
    return new SessionEventStore(this);
  }

  /** Bytes held, overhead included. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Events held. */
  get eventCount(): number {
    return this.#events.size;
  }

  /** @internal Adds an event, then drops the oldest events until the total is under its bound. */
  hold(event: StoredEvent): void {
    this.#events.set(event.id, event);
    this.#bytes += event.bytes;
    for (const oldest of this.#events.values()) {
      if (this.#bytes <= this.limits.totalBytes) break;
      oldest.owner.drop(oldest);
    }
  }

  /** @internal */
  release(event: StoredEvent): void {
    if (this.#events.delete(event.id)) this.#bytes -= event.bytes;
  }
}

/** One session's events: the SDK's `EventStore`, plus the reason a replay cannot be served. */
export class SessionEventStore {
  readonly #all: ResumableEvents;
  /** Random, so ids reveal nothing about the session and cannot be guessed across sessions. */
  readonly #storeId = crypto.randomUUID().replaceAll("-", "");
  /** This session's held events, oldest first. */
  readonly #events = new Map<string, StoredEvent>();
  /** Held events by stream, so a stream's bookkeeping goes with its last event. */
  readonly #perStream = new Map<string, number>();
  /** Request ids of the stream the transport opens next (see {@link expectStream}). */
  #expected: Set<string> | undefined;
  /** Requests of each stream still unanswered. */
  readonly #unanswered = new Map<string, Set<string>>();
  /** Streams whose requests have all been answered. */
  readonly #finished = new Set<string>();
  #nextSequence = 0;
  #bytes = 0;
  #released = false;

  constructor(all: ResumableEvents) {
    this.#all = all;
  }

  /** Events this session holds. */
  get eventCount(): number {
    return this.#events.size;
  }

  /**
   * The request ids of the POST about to be handed to the transport, or undefined to forget them. The
   * transport stores a new stream's opening event synchronously within `handleRequest` (for requests
   * other than initialize, which comes first and alone), so the next opening event is this POST's.
   */
  expectStream(requestIds: Array<string | number> | undefined): void {
    this.#expected = requestIds && new Set(requestIds.map(requestKey));
  }

  storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const sequence = this.#nextSequence++;
    const id = `${this.#storeId}:${sequence}`;
    // A closed session's transport may still be finishing a call: its events have nowhere to be replayed.
    if (this.#released) return Promise.resolve(id);
    this.#track(streamId, message);
    const bytes = JSON.stringify(message).length + streamId.length + EVENT_OVERHEAD_BYTES;
    const event: StoredEvent = { id, streamId, sequence, message, bytes, owner: this };
    this.#events.set(id, event);
    this.#bytes += bytes;
    this.#all.hold(event);
    for (const oldest of this.#events.values()) {
      if (this.#bytes <= this.#all.limits.sessionBytes) break;
      this.drop(oldest);
    }
    return Promise.resolve(id);
  }

  // No getStreamIdForEventId: with it the SDK refuses (409) a resumption while the stream's old connection
  // looks open, which after a network cut it does until the server next writes to it. Without it, the
  // resumed connection replaces the old one.
  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = this.#events.get(lastEventId);
    if (!last) throw new Error(this.replayRefusal(lastEventId)?.message ?? "Unknown event id.");
    // Copied first: sending awaits, and the call may store (and the bounds drop) events meanwhile.
    const later = [...this.#events.values()].filter((event) =>
      event.streamId === last.streamId && event.sequence > last.sequence
    );
    for (const event of later) {
      // The stream's opening event carries no message (the SDK's "priming" event): nothing to resend.
      if ("jsonrpc" in event.message) await send(event.id, event.message);
    }
    return last.streamId;
  }

  /**
   * The events after `eventId` when its stream is finished (every request answered), so the replay is
   * complete and the connection may close after it; undefined when the stream may still carry more.
   */
  finishedReplay(eventId: string): Array<{ id: string; message: JSONRPCMessage }> | undefined {
    const last = this.#events.get(eventId);
    if (!last || !this.#finished.has(last.streamId)) return undefined;
    return [...this.#events.values()]
      .filter((event) =>
        event.streamId === last.streamId && event.sequence > last.sequence && "jsonrpc" in event.message
      )
      .map((event) => ({ id: event.id, message: event.message }));
  }

  /** Why `eventId` cannot be replayed in this session, or undefined when it can. */
  replayRefusal(eventId: string): ReplayRefusal | undefined {
    if (this.#events.has(eventId)) return undefined;
    const quoted = JSON.stringify(
      eventId.length > QUOTED_ID_CHARS ? `${eventId.slice(0, QUOTED_ID_CHARS)}…` : eventId,
    );
    const [storeId, sequence] = eventId.split(":");
    const issuedHere = storeId === this.#storeId && /^\d+$/.test(sequence ?? "") &&
      Number(sequence) < this.#nextSequence;
    if (issuedHere) {
      return {
        status: 410,
        message: `Last-Event-ID ${quoted} is no longer held: this server keeps the latest ` +
          `${this.#all.limits.sessionBytes} bytes of events per session and ${this.#all.limits.totalBytes} ` +
          "in all, and dropped the events after it. What the stream carried since is lost; send the request " +
          "again (a tool call that changes the catalog may have completed: check before repeating it).",
      };
    }
    return {
      status: 400,
      message: `Last-Event-ID ${quoted} was not issued in this session. Resume with the id of the last ` +
        "event this session's stream delivered, or send the request again without Last-Event-ID.",
    };
  }

  /** Drops every event: the session is over. */
  release(): void {
    this.#released = true;
    for (const event of this.#events.values()) this.drop(event);
  }

  /** @internal */
  drop(event: StoredEvent): void {
    if (this.#events.delete(event.id)) {
      this.#bytes -= event.bytes;
      const left = (this.#perStream.get(event.streamId) ?? 1) - 1;
      if (left > 0) {
        this.#perStream.set(event.streamId, left);
      } else {
        this.#perStream.delete(event.streamId);
        this.#unanswered.delete(event.streamId);
        this.#finished.delete(event.streamId);
      }
    }
    this.#all.release(event);
  }

  /** Counts the stream's events; learns its requests from its opening event, and its answers. */
  #track(streamId: string, message: JSONRPCMessage): void {
    this.#perStream.set(streamId, (this.#perStream.get(streamId) ?? 0) + 1);
    if (!("jsonrpc" in message)) {
      if (this.#expected) this.#unanswered.set(streamId, this.#expected);
      this.#expected = undefined;
      return;
    }
    const unanswered = this.#unanswered.get(streamId);
    if (!unanswered || !("id" in message) || !("result" in message || "error" in message)) return;
    unanswered.delete(requestKey(message.id as string | number));
    if (unanswered.size === 0) {
      this.#unanswered.delete(streamId);
      this.#finished.add(streamId);
    }
  }
}

/** 1 and "1" are different JSON-RPC ids. */
function requestKey(id: string | number): string {
  return `${typeof id}:${id}`;
}
