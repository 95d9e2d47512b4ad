/**
 * The opaque `$skipToken` the account, collections and scanning lists page with: the offset of the next
 * item, under a prefix naming the list's area, base64 without padding. A token another area issued, or one
 * edited by hand, reads as no offset, and each area refuses it in its own error shape.
 *
 * @example
 * ```ts
 * import { decodeSkipToken, encodeSkipToken } from "./skip_tokens.ts";
 * const token = encodeSkipToken("scan", 50);
 * console.log(decodeSkipToken("scan", token), decodeSkipToken("account", token)); // 50 undefined
 * ```
 *
 * @module
 */

/** The query parameter the token travels in. */
export const SKIP_TOKEN = "$skipToken";

/** The token of the item at `offset` in one of `area`'s lists. */
export function encodeSkipToken(area: string, offset: number): string {
  return btoa(`${area}:${offset}`).replace(/=+$/, "");
}

/** The offset a token stands for: 0 for no token, undefined for one `area` did not issue. */
export function decodeSkipToken(area: string, token: string | null): number | undefined {
  if (token === null || token === "") return 0;
  let text = "";
  try {
    text = atob(token);
  } catch {
    return undefined;
  }
  const match = new RegExp(`^${area}:(\\d{1,9})$`).exec(text);
  return match ? Number(match[1]) : undefined;
}
