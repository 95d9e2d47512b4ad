/**
 * A person confirms what a model cannot. A destructive tool call says `"confirm": true` — an argument
 * the model itself writes. When the client declares form elicitation (MCP 2025-06-18 `elicitation: {}`,
 * 2025-11-25 `elicitation: {}` or `{ form: {} }`), the server asks the user instead, through
 * `elicitation/create` sent within the tool call (`relatedRequestId`, so over streamable HTTP it travels
 * on the call's own stream), naming what will change; the call goes on only when the user accepts.
 *
 * The person decides: with elicitation a model's `"confirm": true` does not stand in for the user's
 * answer. Decline, cancel, an error answer or no answer in time end the call with an error result, having
 * sent nothing to the catalog. A client without form elicitation keeps the `"confirm": true` rule, and so
 * does the hosted endpoint: its server lives for one request and never sees the client's `initialize`, so
 * it knows no capability, and a stateless server could not take the client's answer anyway.
 *
 * The confirmation is a form with no fields: accept is the yes, as the spec's accept/decline/cancel say.
 *
 * @module
 */
import { GovcatError } from "../core/errors.ts";
import type { CallExtra } from "./session_log.ts";

/**
 * Asks the person at the client to confirm `change` (what the call will change, in their words); resolves
 * when they accept, throws {@link UserConfirmationError} otherwise.
 */
export type AskUser = (change: string) => Promise<void>;

/** Why a call asked of the user did not go ahead. */
export type RefusalReason = "declined" | "cancelled" | "unanswered";

const ERROR_NAMES: Record<RefusalReason, string> = {
  declined: "UserDeclined",
  cancelled: "UserCancelled",
  unanswered: "ConfirmationFailed",
};

/** The user did not accept (or could not be asked): nothing was changed. */
export class UserConfirmationError extends GovcatError {
  readonly reason: RefusalReason;
  constructor(reason: RefusalReason, message: string, hint: string) {
    super(message, { exitCode: 1, hint });
    this.name = ERROR_NAMES[reason];
    this.reason = reason;
  }
}

/** The `elicitation/create` parameters of a confirmation: a message and a form with no fields. */
export interface ConfirmationRequest {
  message: string;
  requestedSchema: { type: "object"; properties: Record<string, never> };
}

/** Whoever sends the question to the client: the SDK's server, or the stdio fast start before it. */
export interface ElicitationPeer {
  /** What the client declared in `initialize`; undefined before it. */
  clientCapabilities(): Record<string, unknown> | undefined;
  /** Sends `elicitation/create` within the call `relatedRequestId`; resolves with the client's result. */
  elicit(
    request: ConfirmationRequest,
    options: { relatedRequestId?: string | number; timeout: number; signal: AbortSignal },
  ): Promise<unknown>;
}

/**
 * True when the client can show a form: `elicitation: {}` (2025-06-18, and 2025-11-25's way of saying
 * form) or `elicitation: { form: {} }`; one that declares only `url` cannot.
 */
export function declaresFormElicitation(capabilities: Record<string, unknown> | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  if (typeof elicitation !== "object" || elicitation === null || Array.isArray(elicitation)) return false;
  return Object.keys(elicitation).length === 0 || "form" in elicitation;
}

/**
 * For each tool call, how to ask its user: a function when the session's client declares form
 * elicitation, else undefined (the `"confirm": true` rule applies). Read per call, as a client declares
 * its capabilities after the server is built.
 */
export function userConfirmations(
  peer: ElicitationPeer,
  timeoutMs: () => number,
): (extra: CallExtra, toolName: string) => AskUser | undefined {
  return (extra, toolName) => {
    if (!declaresFormElicitation(peer.clientCapabilities())) return undefined;
    return (change) => askUser(peer, extra, toolName, change, timeoutMs());
  };
}

/** The question the user sees: what will change, that it cannot be undone, and what each answer does. */
export function confirmationMessage(toolName: string, change: string): string {
  return `${toolName}: ${change}\n\nThis changes the catalog and cannot be undone. Accept to go ahead; ` +
    "decline to change nothing.";
}

async function askUser(
  peer: ElicitationPeer,
  extra: CallExtra,
  toolName: string,
  change: string,
  timeoutMs: number,
): Promise<void> {
  let action: unknown;
  try {
    const answer = await peer.elicit(
      { message: confirmationMessage(toolName, change), requestedSchema: { type: "object", properties: {} } },
      { relatedRequestId: extra.requestId, timeout: timeoutMs, signal: extra.signal },
    );
    action = (answer as { action?: unknown } | undefined)?.action;
    if (action !== "accept" && action !== "decline" && action !== "cancel") {
      throw new Error(`the client answered ${JSON.stringify(answer)}, not accept, decline or cancel`);
    }
  } catch (error) {
    // The call itself was cancelled: that error, not a confirmation failure, ends it.
    if (extra.signal.aborted) throw error;
    throw new UserConfirmationError(
      "unanswered",
      `${toolName}: the user could not be asked to confirm (${errorText(error)}); nothing was changed.`,
      "Ask the user in the conversation whether to go ahead, then call again; the client must answer " +
        "the confirmation it shows (elicitation/create).",
    );
  }
  if (action === "accept") return;
  if (action === "decline") {
    throw new UserConfirmationError(
      "declined",
      `${toolName}: the user declined; nothing was changed.`,
      "Do not call it again unless the user asks for this change.",
    );
  }
  throw new UserConfirmationError(
    "cancelled",
    `${toolName}: the user cancelled the confirmation; nothing was changed.`,
    "Ask the user what they want before trying again.",
  );
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return /timed? ?out/i.test(text) ? `no answer in time: ${text}` : text;
}
