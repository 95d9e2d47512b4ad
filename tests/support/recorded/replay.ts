/**
 * Replays recorded Purview sessions against an emulator: each recorded request is sent, in recorded order,
 * and the answer is compared with the service's (status, content type, JSON shape).
 *
 * Identifiers the service made up (guids of created objects, operation ids) differ from the emulator's, so a
 * later request naming one would miss. {@link IdTranslation} learns, from each pair of answers, which
 * emulator guid stands for which recorded one (same place in both bodies, or same position in an
 * `Operation-Location`), and rewrites later requests with them.
 *
 * @module
 */
import { compareShapes, isGuidText } from "./json_shape.ts";
import { accountHostUrl, type RecordedExchange, recordedHeader, type RecordedSession } from "./sessions.ts";

const GUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Recorded guids and the emulator's guids that stand for them. */
export class IdTranslation {
  readonly #ids = new Map<string, string>();

  /** Pairs the guids found at the same place in a recorded and an emulator answer body. */
  learnFromBodies(recorded: unknown, actual: unknown): void {
    if (typeof recorded === "string" && typeof actual === "string") {
      if (isGuidText(recorded) && isGuidText(actual) && recorded !== actual) this.#pair(recorded, actual);
      return;
    }
    if (Array.isArray(recorded) && Array.isArray(actual)) {
      recorded.forEach((item, index) => this.learnFromBodies(item, actual[index]));
      return;
    }
    if (isObject(recorded) && isObject(actual)) {
      for (const [key, value] of Object.entries(recorded)) this.learnFromBodies(value, actual[key]);
    }
  }

  /** Says that the emulator's `actual` stands for the recorded `recorded`. */
  learn(recorded: string, actual: string): void {
    this.#pair(recorded, actual);
  }

  /** Pairs the guids of two texts (URLs, headers) by their order in each. */
  learnFromTexts(recorded: string | null | undefined, actual: string | null | undefined): void {
    if (!recorded || !actual) return;
    const recordedIds = recorded.match(GUID_ANYWHERE) ?? [];
    const actualIds = actual.match(GUID_ANYWHERE) ?? [];
    recordedIds.forEach((id, index) => {
      if (actualIds[index] && actualIds[index] !== id) this.#pair(id, actualIds[index]);
    });
  }

  /** `text` with every recorded guid learnt so far replaced by the emulator's. */
  apply(text: string): string {
    return text.replace(GUID_ANYWHERE, (id) => this.#ids.get(id.toLowerCase()) ?? id);
  }

  #pair(recorded: string, actual: string): void {
    if (!this.#ids.has(recorded.toLowerCase())) this.#ids.set(recorded.toLowerCase(), actual);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The emulator's answer to one recorded request, and how it differs from the service's. */
export interface ReplayedExchange {
  exchange: RecordedExchange;
  status: number;
  contentType: string | null;
  text: string;
  /** Status, content type and shape differences; empty when the answers agree. */
  differences: string[];
  /** Keys only the emulator's answer has (see compareShapes). */
  extra: string[];
}

/** The media type of a Content-Type value, lower case, without parameters. */
export function mediaType(contentType: string | null | undefined): string | null {
  if (!contentType) return null;
  return contentType.split(";")[0].trim().toLowerCase();
}

function parseJson(text: string): unknown {
  try {
    return text === "" ? null : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Sends one recorded request (rewritten with the ids learnt so far) to `baseUrl` and reads the answer. */
export async function sendRecordedRequest(
  baseUrl: string,
  exchange: RecordedExchange,
  ids: IdTranslation,
): Promise<Response> {
  const headers: Record<string, string> = { accept: "application/json" };
  let body: Uint8Array<ArrayBuffer> | undefined;
  const recorded = exchange.requestBody;
  if (recorded !== null && recorded !== undefined) {
    // Bytes, so that fetch adds no Content-Type of its own: a request recorded without one is sent without.
    body = new TextEncoder().encode(
      ids.apply(typeof recorded === "string" ? recorded : JSON.stringify(recorded)),
    );
    if (exchange.requestContentType) headers["content-type"] = exchange.requestContentType;
    else if (typeof recorded !== "string") headers["content-type"] = "application/json";
  }
  return await fetch(baseUrl + ids.apply(accountHostUrl(exchange)), {
    method: exchange.method,
    headers,
    body,
  });
}

/** Compares the emulator's answer with the recorded one. */
export function compareAnswer(
  exchange: RecordedExchange,
  status: number,
  contentType: string | null,
  text: string,
): Pick<ReplayedExchange, "differences" | "extra"> {
  const differences: string[] = [];
  if (status !== exchange.status) {
    differences.push(
      `status: the service answered ${exchange.status}, the emulator ${status} ${text.slice(0, 300)}`,
    );
    return { differences, extra: [] };
  }
  const recordedType = mediaType(recordedHeader(exchange, "content-type"));
  const actualType = mediaType(contentType);
  const recordedHasBody = exchange.responseBody !== null && exchange.responseBody !== undefined &&
    exchange.responseBody !== "";
  // A recording without a Content-Type (the JS recorder dropped some) says nothing to compare with.
  if (recordedHasBody && recordedType !== null && recordedType !== actualType) {
    differences.push(`content type: the service sent ${recordedType}, the emulator ${actualType}`);
  }
  if (!recordedHasBody) {
    if (text !== "") differences.push(`body: the service sent none, the emulator ${text.slice(0, 200)}`);
    return { differences, extra: [] };
  }
  if (typeof exchange.responseBody === "string") return { differences, extra: [] };
  const actual = parseJson(text);
  if (actual === undefined || actual === null) {
    differences.push(
      `body: the service sent JSON, the emulator ${text === "" ? "nothing" : text.slice(0, 200)}`,
    );
    return { differences, extra: [] };
  }
  const shapes = compareShapes(exchange.responseBody, actual);
  return { differences: [...differences, ...shapes.differences], extra: shapes.extra };
}

/** Replays every exchange of a session, in order, against the emulator at `baseUrl`. */
export async function replaySession(
  baseUrl: string,
  session: RecordedSession,
  ids = new IdTranslation(),
): Promise<ReplayedExchange[]> {
  const replayed: ReplayedExchange[] = [];
  for (const exchange of session.exchanges) {
    const response = await sendRecordedRequest(baseUrl, exchange, ids);
    const text = await response.text();
    const contentType = response.headers.get("content-type");
    const body = parseJson(text);
    if (body !== undefined) ids.learnFromBodies(exchange.responseBody, body);
    ids.learnFromTexts(
      recordedHeader(exchange, "operation-location"),
      response.headers.get("operation-location"),
    );
    replayed.push({
      exchange,
      status: response.status,
      contentType,
      text,
      ...compareAnswer(exchange, response.status, contentType, text),
    });
  }
  return replayed;
}
