/**
 * The policy store area (collection roles; api-version 2021-07-01-preview), mounted without a prefix under
 * `/policyStore`: the built-in metadata roles, the metadata policies (all, or one collection's with
 * `collectionName`), one policy by id, and its update (PUT). Contract:
 * `rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.MetadataPolicies/preview/2021-07-01-preview/purviewMetadataPolicy.json`.
 *
 * - The role list answers a `nextLink` after its one page, whose page is empty, as the service answered
 *   (`fixtures/recorded/net/Administration/MetadataRolesList.json`); the policy list answers one page.
 * - A PUT replaces the policy's rules and description; its name, id, collection and parent are the
 *   service's (a body naming another id or collection is refused, 400). Members of a role must be object
 *   ids (guids). The contract documents no concurrency check: the emulator accepts whatever `version` the
 *   body carries and answers the stored version plus one, as the contract's update example does (1 → 2).
 * - Errors use the `{"error": {code, message, target, details}}` shape of the contract's
 *   ErrorResponseModel.
 *
 * @module
 */
import type { AttributeMatcher, MetadataPolicy } from "../../catalog/policy_types.ts";
import type { ApiArea } from "../area.ts";
import { EmulatorError, jsonResponse } from "../errors.ts";
import { BUILTIN_ROLES } from "./defaults.ts";
import { PolicyStore, type StoredRules } from "./store.ts";
import type { RouteDefinition } from "../router.ts";
import { GUID_PATTERN } from "../../core/guid.ts";

const BASE = "/policyStore";
/** The continuation the role list's only page offers, as the service does; its page is empty. */
const ROLES_END_TOKEN = "end-of-roles";

/** Routes of the policy store (paths start with `/policyStore`; the area is mounted with no prefix). */
export const policyArea: ApiArea = (deps) => {
  const store = PolicyStore.open(deps.store, deps.now);
  const existing = (id: string): MetadataPolicy => store.get(id) ?? throwError(policyNotFound(id));
  const routes: RouteDefinition[] = [
    {
      method: "GET",
      path: `${BASE}/metadataRoles`,
      handler: ({ url }) => {
        const token = url.searchParams.get("skipToken");
        if (token !== null && token !== ROLES_END_TOKEN) {
          throw new EmulatorError(
            400,
            "InvalidSkipToken",
            `skipToken '${token}' was not given by this list.`,
            {
              target: "skipToken",
            },
          );
        }
        if (token !== null) return jsonResponse({ values: [] });
        const next = new URL(url);
        next.searchParams.set("skipToken", ROLES_END_TOKEN);
        return jsonResponse({ values: BUILTIN_ROLES, nextLink: next.href });
      },
    },
    {
      method: "GET",
      path: `${BASE}/metadataPolicies`,
      handler: ({ url }) => {
        const collection = url.searchParams.get("collectionName");
        if (collection === null) return jsonResponse({ values: store.list() });
        const policy = store.forCollection(collection) ?? throwError(collectionNotFound(collection));
        return jsonResponse({ values: [policy] });
      },
    },
    {
      method: "GET",
      path: `${BASE}/metadataPolicies/{policyId}`,
      handler: ({ params }) => jsonResponse(existing(params.policyId)),
    },
    {
      method: "PUT",
      path: `${BASE}/metadataPolicies/{policyId}`,
      handler: async ({ params, readJson }) => {
        const current = existing(params.policyId);
        const rules = rulesOfBody(await readJson(), current);
        return jsonResponse(store.update(current.id!, rules) ?? throwError(policyNotFound(params.policyId)));
      },
    },
  ];
  return routes;
};

function throwError(error: EmulatorError): never {
  throw error;
}

function policyNotFound(id: string): EmulatorError {
  return new EmulatorError(404, "PolicyNotFound", `Metadata policy '${id}' does not exist.`, {
    target: "policyId",
  });
}

function collectionNotFound(name: string): EmulatorError {
  return new EmulatorError(404, "CollectionNotFound", `Collection '${name}' does not exist.`, {
    target: "collectionName",
  });
}

function invalidPolicy(message: string, target: string): EmulatorError {
  return new EmulatorError(400, "InvalidPolicy", message, { target });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The rules a PUT body sets, checked against the policy it replaces. */
function rulesOfBody(body: unknown, current: MetadataPolicy): StoredRules {
  if (!isObject(body) || !isObject(body.properties)) {
    throw invalidPolicy("The body must be a metadata policy: an object with its properties.", "body");
  }
  if (body.id !== undefined && String(body.id).toLowerCase() !== current.id) {
    throw invalidPolicy(`The body's id '${body.id}' is not the policy's id '${current.id}'.`, "id");
  }
  const properties = body.properties;
  const collection = isObject(properties.collection) ? properties.collection.referenceName : undefined;
  const own = current.properties?.collection?.referenceName;
  if (collection !== undefined && String(collection).toLowerCase() !== own) {
    throw invalidPolicy(
      `The policy belongs to collection '${own}'; it cannot be given to '${collection}'.`,
      "properties.collection.referenceName",
    );
  }
  const decisionRules = ruleList(properties.decisionRules, "decisionRules");
  const attributeRules = ruleList(properties.attributeRules, "attributeRules");
  const ids = new Set<string>();
  for (const rule of attributeRules) {
    const id = String(rule.id ?? "");
    if (id === "" || ids.has(id)) {
      throw invalidPolicy(
        `Every attribute rule needs an id of its own; '${id}' is missing or repeated.`,
        "id",
      );
    }
    ids.add(id);
    checkPrincipals(rule.dnfCondition as AttributeMatcher[][], id);
  }
  return {
    description: typeof properties.description === "string" ? properties.description : "",
    decisionRules: decisionRules.map((rule) => ({ ...rule, kind: "decisionrule" })),
    attributeRules: attributeRules.map((rule) => ({ ...rule, kind: "attributerule" })),
  };
}

/** A list of rules, each an object whose dnfCondition (if any) is a list of lists of objects. */
function ruleList(value: unknown, name: string): Record<string, unknown>[] {
  const target = `properties.${name}`;
  if (!Array.isArray(value)) {
    throw invalidPolicy(`${target} must be a list of rules; send the policy back whole, as read.`, target);
  }
  value.forEach((rule, index) => {
    const condition = isObject(rule) ? rule.dnfCondition : undefined;
    const wellFormed = isObject(rule) && (condition === undefined || (Array.isArray(condition) &&
      condition.every((clause) => Array.isArray(clause) && clause.every(isObject))));
    if (!wellFormed) {
      throw invalidPolicy(
        `${target}[${index}] must be a rule whose dnfCondition is a list of lists.`,
        target,
      );
    }
  });
  return value as Record<string, unknown>[];
}

/** Members of a role are Entra object ids: anything else would grant nobody, or somebody unintended. */
function checkPrincipals(condition: AttributeMatcher[][] | undefined, ruleId: string): void {
  for (const clause of condition ?? []) {
    for (const matcher of clause) {
      if (matcher.attributeName !== "principal.microsoft.id") continue;
      const values = [
        ...(Array.isArray(matcher.attributeValueIncludedIn) ? matcher.attributeValueIncludedIn : []),
        ...(matcher.attributeValueIncludes === undefined ? [] : [matcher.attributeValueIncludes]),
      ];
      const bad = values.find((value) => typeof value !== "string" || !GUID_PATTERN.test(value));
      if (bad !== undefined) {
        throw invalidPolicy(
          `Rule '${ruleId}' names principal '${bad}', which is not an object id (a guid).`,
          "principal.microsoft.id",
        );
      }
    }
  }
}
