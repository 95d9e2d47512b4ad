/**
 * Fix hints of refused requests, chosen from one table ({@link HINT_RULES}, its rows in
 * `error_hint_rules.ts`) that says, for each cause govcat recognises, what the user can do next. A cause is
 * keyed by the kind of resource the request addressed (read from its path, so the API area is part of the
 * kind: `datamap.glossary-term`, `unified.domain`), the HTTP status, and where the service says more, its
 * error code or a pattern of its message. The first row that fits wins; the rows without a kind at the end
 * are the fallbacks of each status. `errorForStatus` (`errors.ts`) gives every refused request its hint
 * from here, whichever front end made it.
 *
 * Hints of collections and scans are given by their operations (`collections_support.ts`,
 * `scan_inputs.ts`), which know the front end that shows them; they are not repeated here.
 *
 * @example
 * ```ts
 * import { hintFor } from "./error_hints.ts";
 * hintFor({
 *   status: 404,
 *   method: "DELETE",
 *   url: "http://127.0.0.1:8085/datamap/api/atlas/v2/types/typedef/name/Stewardship",
 * }); // "Check the type name: `govcat types list-headers` lists …"
 * ```
 *
 * @module
 */
import { HINT_RULES } from "./error_hint_rules.ts";

export { HINT_RULES };

/** The kind of resource a request addressed, area first. */
export type ResourceKind =
  | "datamap.entity"
  | "datamap.lineage"
  | "datamap.relationship"
  | "datamap.typedef"
  | "datamap.search"
  | "datamap.glossary"
  | "datamap.glossary-category"
  | "datamap.glossary-term"
  | "datamap.term-assignment"
  | "datamap.term-import"
  | "unified.domain"
  | "unified.term"
  | "unified.dataproduct"
  | "unified.cde"
  | "unified.objective"
  | "unified.keyresult"
  | "unified.policy"
  | "account.metadata-policy"
  | "unified.dataasset"
  | "unified.datacolumn";

/** What is known of a refused request when its hint is chosen. */
export interface FailureFacts {
  status: number;
  method?: string;
  /** The request URL (or only its path). */
  url?: string;
  /** The service's error code, e.g. `ATLAS-404-00-005` or `EntityNotFound`. */
  code?: string;
  /** The service's message. */
  message?: string;
}

/** Which paths address which kind of resource; the first pattern that matches the path wins. */
export const RESOURCE_PATHS: ReadonlyArray<{ kind: ResourceKind; pattern: RegExp }> = [
  { kind: "datamap.term-assignment", pattern: /\/atlas\/v2\/glossary\/terms\/[^/]+\/assignedEntities\/?$/ },
  // The status of a term import (catalog API); the upload itself addresses its glossary.
  { kind: "datamap.term-import", pattern: /\/glossary\/terms\/import(?:\/|$)/ },
  { kind: "datamap.glossary-term", pattern: /\/atlas\/v2\/glossary\/terms?(?:\/|$)/ },
  { kind: "datamap.glossary-category", pattern: /\/atlas\/v2\/glossary\/categor(?:y|ies)(?:\/|$)/ },
  { kind: "datamap.glossary", pattern: /\/glossary(?:\/|$)/ },
  { kind: "datamap.typedef", pattern: /\/atlas\/v2\/types\// },
  { kind: "datamap.relationship", pattern: /\/atlas\/v2\/relationship(?:\/|$)/ },
  { kind: "datamap.lineage", pattern: /\/atlas\/v2\/lineage(?:\/|$)/ },
  { kind: "datamap.entity", pattern: /\/atlas\/v2\/entity(?:\/|$)|\/entity\/moveTo$/ },
  { kind: "datamap.search", pattern: /\/search\/|\/browse$/ },
  { kind: "unified.keyresult", pattern: /\/datagovernance\/catalog\/objectives\/[^/]+\/keyResults/i },
  { kind: "unified.domain", pattern: /\/datagovernance\/catalog\/businessdomains(?:\/|$)/i },
  { kind: "unified.term", pattern: /\/datagovernance\/catalog\/terms(?:\/|$)/i },
  { kind: "unified.dataproduct", pattern: /\/datagovernance\/catalog\/dataproducts(?:\/|$)/i },
  { kind: "unified.cde", pattern: /\/datagovernance\/catalog\/criticaldataelements(?:\/|$)/i },
  { kind: "unified.objective", pattern: /\/datagovernance\/catalog\/objectives(?:\/|$)/i },
  { kind: "unified.policy", pattern: /\/datagovernance\/catalog\/policies(?:\/|$)/i },
  { kind: "account.metadata-policy", pattern: /\/policyStore\// },
  { kind: "unified.dataasset", pattern: /\/datagovernance\/catalog\/dataassets(?:\/|$)/i },
  { kind: "unified.datacolumn", pattern: /\/datagovernance\/catalog\/datacolumns(?:\/|$)/i },
];

/** One recognised cause and its hint. */
export interface HintRule {
  /** Stable name of the cause, for tests and for people reading the table. */
  cause: string;
  /** The kinds of resource it applies to; absent: any request. */
  kinds?: readonly ResourceKind[];
  /** The statuses it applies to; `"5xx"` is every server failure. */
  statuses: readonly number[] | "5xx";
  /** Only these methods (upper case); absent: any. */
  methods?: readonly string[];
  /**
   * What the service said that shows the cause: its error code or a pattern of its message. One matching
   * is enough (services differ in which they send); absent: the kind and status alone decide.
   */
  said?: { code?: RegExp; message?: RegExp };
  /** A further check on the facts (and the request's path), for causes the kind and words cannot tell apart. */
  when?: (facts: FailureFacts & { path: string }) => boolean;
  hint: string;
}

/** The path of a URL (or the string itself when it is a bare path), without query. */
function pathOf(url: string | undefined): string {
  if (!url) return "";
  try {
    return new URL(url).pathname;
  } catch {
    return url.split("?")[0];
  }
}

/** The kind of resource a request URL (or path) addresses, when govcat knows it. */
export function resourceKindOf(url: string | undefined): ResourceKind | undefined {
  const path = pathOf(url);
  return path ? RESOURCE_PATHS.find((entry) => entry.pattern.test(path))?.kind : undefined;
}

/** The first row of {@link HINT_RULES} that fits the facts. */
export function hintRuleFor(facts: FailureFacts): HintRule | undefined {
  const path = pathOf(facts.url);
  const kind = resourceKindOf(path);
  const method = (facts.method ?? "GET").toUpperCase();
  return HINT_RULES.find((rule) => {
    const status = rule.statuses === "5xx"
      ? facts.status >= 500 && facts.status <= 599
      : rule.statuses.includes(facts.status);
    if (!status) return false;
    if (rule.kinds && !(kind && rule.kinds.includes(kind))) return false;
    if (rule.methods && !rule.methods.includes(method)) return false;
    if (rule.said) {
      const code = !!rule.said.code && !!facts.code && rule.said.code.test(facts.code);
      const message = !!rule.said.message && !!facts.message && rule.said.message.test(facts.message);
      if (!code && !message) return false;
    }
    return !rule.when || rule.when({ ...facts, path });
  });
}

/** The fix hint for a refused request, or undefined when govcat has nothing to add to the message. */
export function hintFor(facts: FailureFacts): string | undefined {
  return hintRuleFor(facts)?.hint;
}
