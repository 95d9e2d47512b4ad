/**
 * The calls a stateless (hosted) server is running, so they can be stopped from outside the request
 * that carries them: by the client's `notifications/cancelled`, which arrives as a separate POST and
 * reaches a server that knows nothing of the call (MCP basic/utilities/cancellation), and by a
 * `DELETE` that ends the caller's session.
 *
 * A call is found by its caller's `Mcp-Session-Id` and its JSON-RPC id. Request ids are chosen by clients
 * and collide between them (the SDK client counts from 0), so the session id is what tells callers apart:
 * a random id the server gave only to the client that initialised, which another caller cannot guess.
 * A call made without a session id can be stopped only by its client going away.
 *
 * @example
 * ```ts
 * import { HostedCalls } from "./hosted_calls.ts";
 * const calls = new HostedCalls();
 * let stopped = false;
 * calls.track("session-a", [0], () => stopped = true);
 * calls.cancel("session-b", 0); // another caller's cancellation: ignored
 * calls.cancel("session-a", 0);
 * console.log(stopped); // true
 * ```
 *
 * @module
 */

type RequestId = string | number;

export class HostedCalls {
  /** Stop functions by call key; a set, as a client may (wrongly) reuse an id for concurrent calls. */
  readonly #running = new Map<string, Set<() => void>>();
  /** Every running call's stop function, with or without a session. */
  readonly #all = new Set<() => void>();

  /** Number of calls running. */
  get size(): number {
    return this.#all.size;
  }

  /**
   * Registers a running call (the requests of one POST); returns the function that forgets it once it
   * has ended. `stop` must end the call and its response stream.
   */
  track(sessionId: string | undefined, requestIds: RequestId[], stop: () => void): () => void {
    const keys = sessionId === undefined ? [] : requestIds.map((id) => callKey(sessionId, id));
    for (const key of keys) {
      const stops = this.#running.get(key) ?? new Set();
      stops.add(stop);
      this.#running.set(key, stops);
    }
    this.#all.add(stop);
    return () => {
      this.#all.delete(stop);
      for (const key of keys) {
        const stops = this.#running.get(key);
        stops?.delete(stop);
        if (stops?.size === 0) this.#running.delete(key);
      }
    };
  }

  /** Stops the call `requestId` of `sessionId`; false when no such call runs (already ended, or not theirs). */
  cancel(sessionId: string, requestId: RequestId): boolean {
    const stops = this.#running.get(callKey(sessionId, requestId));
    if (!stops) return false;
    for (const stop of [...stops]) stop();
    return true;
  }

  /** Stops every call of `sessionId`; returns how many there were. */
  endSession(sessionId: string): number {
    const prefix = `${sessionId}\u0000`;
    const stops = new Set<() => void>();
    for (const [key, keyStops] of this.#running) {
      if (key.startsWith(prefix)) keyStops.forEach((stop) => stops.add(stop));
    }
    for (const stop of stops) stop();
    return stops.size;
  }

  /** Stops every call (the server is shutting down). */
  stopAll(): void {
    for (const stop of [...this.#all]) stop();
  }
}

/** 1 and "1" are different JSON-RPC ids; NUL cannot occur in a header value, so keys cannot collide. */
function callKey(sessionId: string, requestId: RequestId): string {
  return `${sessionId}\u0000${typeof requestId}:${requestId}`;
}
