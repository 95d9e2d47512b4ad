/**
 * The lookups of an entity import's batches, shared while the service throttles: names that batches ask
 * about while another lookup is under way wait for it and then go together (with none under way, a lookup
 * waits {@link SHARE_WAIT_MS} for other batches' names), in one
 * `GET …/bulk/uniqueAttribute` of as many names as the URL budget allows (entity_catalog_io.ts), instead of
 * a request or two per batch. Under a throttled service every request counts against the same allowed
 * rate, so this leaves more of it to the writes. While the service has not throttled for
 * {@link SHARE_AFTER_THROTTLE_MS}, each batch's lookup goes at once (one request for up to the budget's
 * names), since waiting would only lengthen every batch.
 *
 * What keeps "never overwrite unless asked" as true as a lookup per batch made it: a name is only ever put
 * into a lookup not yet sent, so every batch's names are asked about after the batch started, and the
 * batch is written as soon as its answer comes, as before. A lookup the service refuses (a 4xx) is not
 * shared: each batch that waited on it asks again on its own, exactly as before, so a refusal counts only
 * against the batch whose names caused it. Any other failure (throttled past the retries, unreachable) is
 * every waiting batch's, as it would have been for each batch's own lookup.
 *
 * @example
 * ```ts
 * import { SharedLookups } from "./entity_lookups.ts";
 * import type { CatalogClient } from "../catalog/client.ts";
 * declare const catalog: CatalogClient;
 * const lookups = new SharedLookups(catalog);
 * const found = await lookups.find([{ typeName: "DataSet", qualifiedName: "ds://a" }], new AbortController().signal);
 * console.log(found.size);
 * ```
 *
 * @module
 */
import type { CatalogClient } from "../catalog/client.ts";
import type { AtlasEntity } from "../catalog/atlas_model.ts";
import { isRowRefusal } from "../csv/refusals.ts";
import {
  existingKey,
  existingKeys,
  existingKeysOfKnownTypes,
  lookupParameterLength,
  lookupTakes,
} from "./entity_catalog_io.ts";

type Pair = { typeName: string; qualifiedName: string };

/**
 * How long after the service last throttled lookups are still shared. Sharing makes a batch wait for the
 * lookup under way; that is worth it while requests are what the service limits, and only then.
 */
export const SHARE_AFTER_THROTTLE_MS = 10_000;

/** How long a shared lookup with nothing under way waits for other batches' names before it goes. */
export const SHARE_WAIT_MS = 50;

/** One lookup being filled: names of one type, and the answer every batch with a name in it awaits. */
class OpenLookup {
  readonly names: string[] = [];
  length = 0;
  readonly answer: Promise<Map<string, AtlasEntity>>;
  #start!: () => void;

  constructor(readonly typeName: string, ask: (lookup: OpenLookup) => Promise<Map<string, AtlasEntity>>) {
    const started = new Promise<void>((resolve) => this.#start = resolve);
    this.answer = started.then(() => ask(this));
    // Every batch that joins awaits the answer; a failure is theirs to handle.
    this.answer.catch(() => {});
  }

  /** Adds `name` when the lookup has room for it; false leaves the lookup as it was. */
  tryAdd(name: string): boolean {
    const cost = lookupParameterLength(name, this.names.length);
    if (!lookupTakes(this.names.length, this.length, cost)) return false;
    this.length += cost;
    this.names.push(name);
    return true;
  }

  send(): void {
    this.#start();
  }
}

/** The lookups of one import run; see the module documentation. */
export class SharedLookups {
  readonly #catalog: CatalogClient;
  /** The lookup being filled, per type; sent when full or when no lookup is under way. */
  readonly #open = new Map<string, OpenLookup>();
  #underWay = 0;
  #shareUntil = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #signal: AbortSignal | undefined;

  constructor(catalog: CatalogClient) {
    this.#catalog = catalog;
  }

  /** The entities of `pairs` that exist (ACTIVE), by {@link existingKey}. */
  async find(pairs: Pair[], signal: AbortSignal): Promise<Map<string, AtlasEntity>> {
    this.#signal ??= signal;
    const joined = new Set<OpenLookup>();
    const seen = new Set<string>();
    for (const { typeName, qualifiedName } of pairs) {
      const key = existingKey(typeName, qualifiedName);
      if (seen.has(key)) continue;
      seen.add(key);
      let lookup = this.#open.get(typeName);
      if (!lookup?.tryAdd(qualifiedName)) {
        if (lookup) this.#send(lookup);
        lookup = new OpenLookup(typeName, (full) => this.#ask(full));
        this.#open.set(typeName, lookup);
        lookup.tryAdd(qualifiedName); // An empty lookup takes any name.
      }
      joined.add(lookup);
    }
    // Unthrottled, a batch waits for no one; throttled, a request is worth more than the wait.
    if (!this.#sharing()) this.#sendOpen();
    else if (this.#underWay === 0) this.#sendSoon();
    const answers = await Promise.allSettled([...joined].map((lookup) => lookup.answer));
    const failed = answers.find((answer) => answer.status === "rejected");
    if (failed) {
      // A refusal may be of another batch's names: this batch asks on its own, as it did alone. Anything
      // else (throttled past the retries, unreachable) is the service's state, the same for everyone.
      if (!isRowRefusal(failed.reason)) throw failed.reason;
      return await existingKeysOfKnownTypes(this.#catalog, pairs, signal);
    }
    const found = new Map<string, AtlasEntity>();
    for (const answer of answers) {
      for (const [key, entity] of (answer as PromiseFulfilledResult<Map<string, AtlasEntity>>).value) {
        if (seen.has(key)) found.set(key, entity);
      }
    }
    return found;
  }

  /**
   * Tells that the service answered 429, asking for a pause of `pauseMs`: lookups are shared from now until
   * {@link SHARE_AFTER_THROTTLE_MS} after the pause.
   */
  throttled(pauseMs: number): void {
    this.#shareUntil = Math.max(this.#shareUntil, Date.now() + pauseMs + SHARE_AFTER_THROTTLE_MS);
  }

  #sharing(): boolean {
    return Date.now() < this.#shareUntil;
  }

  #send(lookup: OpenLookup): void {
    if (this.#open.get(lookup.typeName) === lookup) this.#open.delete(lookup.typeName);
    this.#underWay++;
    lookup.send();
  }

  /** Sends the open lookups after {@link SHARE_WAIT_MS}, so batches starting meanwhile join them. */
  #sendSoon(): void {
    this.#timer ??= setTimeout(() => this.#sendOpen(), SHARE_WAIT_MS);
  }

  #sendOpen(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const lookup of [...this.#open.values()]) this.#send(lookup);
  }

  async #ask(lookup: OpenLookup): Promise<Map<string, AtlasEntity>> {
    try {
      return await existingKeys(
        this.#catalog,
        lookup.names.map((qualifiedName) => ({ typeName: lookup.typeName, qualifiedName })),
        this.#signal,
      );
    } finally {
      // Names that gathered while this one was under way go now, together.
      if (--this.#underWay === 0) this.#sendOpen();
    }
  }
}
