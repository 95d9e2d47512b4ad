/**
 * Bodies in and out of the HTTP core. A request's body is encoded as JSON unless it is ready to send; an
 * answer is read as a stream and refused past a size once decompressed (ResponseTooLargeError), and a JSON
 * answer nested deeper than a bound is refused before it is parsed (AnswerTooDeepError). Error bodies are
 * read up to a size and the rest dropped.
 *
 * @example
 * ```ts
 * import { readAnswer } from "./body_limits.ts";
 * const response = new Response('{"ok":true}');
 * const context = { method: "GET", url: "http://127.0.0.1:8085/x" };
 * const read = await readAnswer(response, context, { maxResponseBytes: 1024, maxJsonDepth: 64 }, "json");
 * console.log("value" in read ? read.value : read.error.message);
 * ```
 *
 * @module
 */
import { AnswerTooDeepError, ResponseTooLargeError } from "../core/errors.ts";
import { jsonBytesExceedDepth } from "../core/json_depth.ts";
import type { RequestContext } from "./error_mapping.ts";

/** How to read a successful body: parsed JSON (text when it is not JSON), text, or the bytes. */
export type ResponseType = "json" | "text" | "bytes";

/** The bounds an answer is read within. */
export interface AnswerLimits {
  /** Largest answer read, in bytes once decompressed (CATALOG_MAX_RESPONSE_BYTES). */
  maxResponseBytes: number;
  /** Deepest nesting of arrays and objects accepted in a JSON answer (CATALOG_MAX_JSON_DEPTH). */
  maxJsonDepth: number;
}

/** One decoder for every answer: decoding without `stream` keeps no state between calls. */
const UTF8 = new TextDecoder();
/**
 * Default of `maxResponseBytes` (64 MiB, decompressed). The largest real answers are pages: a search page
 * of 1,000 results, a bulk entity read with its referred entities, a full typedef list or a deep lineage
 * graph, a few MB each on large accounts. 64 MiB leaves ten times that, while a hostile or broken peer
 * (a gzip bomb expands 1,000-fold) cannot take more than about that much memory per request in flight.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
/** Error bodies are read up to this size (the rest is dropped, not refused): messages are short. */
const MAX_ERROR_BODY_BYTES = 1024 * 1024;
const READ_BLOCK_BYTES = 1024 * 1024;

/** A request body as fetch takes it: JSON unless it is a ready `FormData`, `Uint8Array` or string. */
export function encodeBody(body: unknown): { body?: BodyInit; contentType?: string } {
  if (body === undefined) return {};
  if (body instanceof FormData || body instanceof Uint8Array || typeof body === "string") {
    return { body: body as BodyInit };
  }
  return { body: JSON.stringify(body), contentType: "application/json" };
}

/**
 * The value of a successful answer read as `type`, or the error refusing it: larger than
 * `limits.maxResponseBytes` once decompressed, or (JSON) nested deeper than `limits.maxJsonDepth`.
 */
export async function readAnswer(
  response: Response,
  context: RequestContext,
  limits: AnswerLimits,
  type: ResponseType,
): Promise<{ value: unknown } | { error: ResponseTooLargeError | AnswerTooDeepError }> {
  const limit = limits.maxResponseBytes;
  const bytes = await readLimited(response, limit, "refuse");
  if (bytes === undefined) {
    const error = new ResponseTooLargeError({
      ...context,
      status: response.status,
      message: `The catalog's answer is larger than ${describeBytes(limit)} once decompressed ` +
        `(CATALOG_MAX_RESPONSE_BYTES=${limit}); it was not read further.`,
      hint: "Ask for less at a time (a smaller --limit or page size, fewer GUIDs per call), or raise " +
        "CATALOG_MAX_RESPONSE_BYTES if answers this large are expected from this catalog.",
    });
    return { error };
  }
  // Counted before parsing, without recursion: what reads the parsed answer afterwards recurses.
  if (type === "json" && jsonBytesExceedDepth(bytes, limits.maxJsonDepth)) {
    const depth = limits.maxJsonDepth;
    const error = new AnswerTooDeepError({
      ...context,
      status: response.status,
      message: `The catalog's answer nests arrays and objects more than ${depth} levels deep ` +
        `(CATALOG_MAX_JSON_DEPTH=${depth}); no real answer is that deep, so it was not used.`,
      hint: "Check that CATALOG_ENDPOINT points at the catalog; raise CATALOG_MAX_JSON_DEPTH only if " +
        "answers this deep are expected from it.",
    });
    return { error };
  }
  return { value: decodeBody(bytes, type) };
}

/** The text of an error answer, its first {@link MAX_ERROR_BODY_BYTES} bytes (the rest is dropped). */
export async function readErrorText(response: Response): Promise<string> {
  const raw = await readLimited(response, MAX_ERROR_BODY_BYTES, "truncate");
  return UTF8.decode(raw);
}

/**
 * Reads a body as a stream, decompressed, up to `limit` bytes: past it the read stops and the rest is
 * cancelled, and the answer is undefined ("refuse") or the first `limit` bytes ("truncate"). Bytes are read
 * into one buffer that grows to at most `limit + 1`, so memory stays near `limit` whatever the peer sends
 * (keeping the chunks fetch hands out would not: each 4 KiB of a decompressed body holds a 64 KiB buffer).
 */
async function readLimited(
  response: Response,
  limit: number,
  over: "refuse" | "truncate",
): Promise<Uint8Array | undefined> {
  if (!response.body) return new Uint8Array(0);
  // A declared length tells the size of a body sent as is (a compressed size proves nothing).
  const declared = response.headers.has("content-encoding")
    ? NaN
    : Number(response.headers.get("content-length") ?? NaN);
  if (over === "refuse" && declared > limit) {
    await response.body.cancel().catch(() => {});
    return undefined;
  }
  // Read into blocks of at most 1 MiB, filled in place: at most `limit + 1` bytes are ever held.
  const capacity = limit + 1;
  const blocks: Uint8Array[] = [];
  let block = new Uint8Array(Math.min(capacity, declared >= 0 ? declared + 1 : 64 * 1024));
  let filled = 0;
  let size = 0;
  let reader: ReadableStreamBYOBReader;
  try {
    reader = response.body.getReader({ mode: "byob" });
  } catch {
    // Not a byte stream (a Response built from a string or a plain stream): chunks are copied instead.
    return await readCopying(response.body, limit, over);
  }
  try {
    for (;;) {
      if (filled === block.byteLength) {
        blocks.push(block);
        if (size === capacity) {
          await reader.cancel().catch(() => {});
          return over === "refuse" ? undefined : concatenate(blocks, limit);
        }
        block = new Uint8Array(Math.min(READ_BLOCK_BYTES, capacity - size));
        filled = 0;
      }
      // The read takes the block over and hands it back in `value`.
      const { done, value } = await reader.read(block.subarray(filled));
      if (value === undefined) break;
      block = new Uint8Array(value.buffer);
      filled += value.byteLength;
      size += value.byteLength;
      if (done) break;
    }
  } finally {
    reader.releaseLock();
  }
  blocks.push(block.subarray(0, filled));
  return concatenate(blocks, size);
}

/** {@link readLimited} for a stream that has no BYOB reader: each chunk is copied (views may pin more). */
async function readCopying(
  body: ReadableStream<Uint8Array>,
  limit: number,
  over: "refuse" | "truncate",
): Promise<Uint8Array | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.byteLength > limit) {
        await reader.cancel().catch(() => {});
        if (over === "refuse") return undefined;
        chunks.push(value.slice(0, limit - size));
        return concatenate(chunks, limit);
      }
      chunks.push(value.slice());
      size += value.byteLength;
    }
  } finally {
    reader.releaseLock();
  }
  return concatenate(chunks, size);
}

/** The first `size` bytes of `blocks`, as one array (the block itself when there is one). */
function concatenate(blocks: Uint8Array[], size: number): Uint8Array {
  if (blocks.length === 1) return blocks[0].subarray(0, size);
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const block of blocks) {
    if (offset >= size) break;
    const part = block.subarray(0, Math.min(block.byteLength, size - offset));
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}

function describeBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}

function decodeBody(bytes: Uint8Array, type: ResponseType): unknown {
  if (type === "bytes") return bytes;
  const text = UTF8.decode(bytes);
  if (type === "text") return text;
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
