/**
 * The signed-in user an MCP session belongs to. A streamable-HTTP or SSE session is opened by one user
 * (tenant and object id); a request on that session with another user's valid token is refused, so a
 * leaked or guessed session id is of no use to anyone else. Each accepted request refreshes the token the
 * session holds, so calls made as the user (on-behalf-of) use the freshest assertion.
 *
 * @module
 */
import { jsonError } from "../http_security.ts";
import type { SignedInUser } from "./entra_token.ts";

/** Stable key of a user across tokens: tenant and object id. */
export function userKey(user: Pick<SignedInUser, "tenantId" | "objectId">): string {
  return `${user.tenantId}/${user.objectId}`;
}

export class SessionUser {
  #current: SignedInUser;

  constructor(user: SignedInUser) {
    this.#current = user;
  }

  /** The latest verified token of the session's user. */
  get current(): SignedInUser {
    return this.#current;
  }

  get key(): string {
    return userKey(this.#current);
  }

  /**
   * Undefined when `user` owns the session (its token becomes the current one), else a 403 refusal that
   * names neither user.
   */
  admit(user: SignedInUser, sessionId: string): Response | undefined {
    if (userKey(user) !== this.key) {
      return jsonError(
        403,
        `Session ${sessionId} belongs to another user: a session serves only the user who opened it. ` +
          "Initialize a new session with your own token.",
      );
    }
    // A token that expires later replaces the held one; an older one (a retried request) does not.
    if (user.expiresAt >= this.#current.expiresAt) this.#current = user;
    return undefined;
  }
}
