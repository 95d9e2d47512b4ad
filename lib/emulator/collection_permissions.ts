/**
 * Collection roles decide what a signed-in caller may do in the emulator's team mode
 * (`startEmulator({ roles: … })`). The caller is the `oid` of the request's bearer token (read without
 * checking its signature: the emulator listens on loopback and trusts its callers); the role and collection
 * a request needs come from permission_needs.ts; the caller may go ahead when the metadata policies of the
 * policy store give them that role on that collection, directly or inherited from an ancestor whose grants
 * reach it (a collection inherits until its policy cuts inheritance). A request without a token gets 401,
 * one the policies do not allow 403 naming the caller and the role it needs.
 *
 * Who holds a role is computed by `effectiveHolders` of lib/catalog/policy_members.ts, the same reading of
 * the service's policy form (`<role>:<collection>` rules, the `permission:<parent>` clause) that
 * `govcat policy` shows people: one reading, so what `govcat policy show` lists is what the emulator
 * enforces. It is logic over the policy documents, not a value list the emulator checks requests against;
 * the role ids compared stay the emulator's own (policy/defaults.ts), so the rule of
 * tests/contract/emulator_lists_test.ts holds.
 *
 * @module
 */
import { effectiveHolders, withMember } from "../catalog/policy_members.ts";
import type { MetadataPolicy } from "../catalog/policy_types.ts";
import { bearerClaims } from "./bearer_claims.ts";
import { CollectionStore } from "./collections/store.ts";
import { EmulatorError } from "./errors.ts";
import {
  type NeedLookups,
  type PermissionNeed,
  permissionsNeeded,
  type RequestFacts,
} from "./permission_needs.ts";
import { ROLE_IDS, ROOT_ROLES } from "./policy/defaults.ts";
import { PolicyStore } from "./policy/store.ts";
import { ScanStore } from "./scan/store.ts";
import { SCOPED_SEARCH, scopedSearchBody } from "./search/scope.ts";
import type { EntityStore } from "./store.ts";

/** The roles that meet a need for each role: data-reader is met by every role, the others by themselves. */
const MEETS: Readonly<Record<string, readonly string[]>> = {
  [ROLE_IDS.dataReader]: Object.values(ROLE_IDS),
  [ROLE_IDS.dataCurator]: [ROLE_IDS.dataCurator],
  [ROLE_IDS.dataSourceAdmin]: [ROLE_IDS.dataSourceAdmin],
  [ROLE_IDS.collectionAdmin]: [ROLE_IDS.collectionAdmin],
};

/** The short names people use for the roles, in refusals. */
const ROLE_NAMES: Readonly<Record<string, string>> = {
  [ROLE_IDS.collectionAdmin]: "collection-admin",
  [ROLE_IDS.dataSourceAdmin]: "data-source-admin",
  [ROLE_IDS.dataCurator]: "data-curator",
  [ROLE_IDS.dataReader]: "data-reader",
};

/** Whether `principal` holds a role meeting `need` on its collection, given every collection's policy. */
export function holdsRole(
  policies: ReadonlyMap<string, MetadataPolicy>,
  need: PermissionNeed,
  principal: string,
): boolean {
  const caller = principal.toLowerCase();
  const meeting = MEETS[need.roleId] ?? [need.roleId];
  return effectiveHolders(policies, need.collection).some((holder) =>
    holder.principalId.toLowerCase() === caller && meeting.includes(holder.roleId)
  );
}

/** The policy check of an emulator: answers why a request may not go ahead, or undefined when it may. */
export class CollectionPermissions {
  readonly #policies: PolicyStore;
  readonly #lookups: NeedLookups;
  readonly #callerWithoutToken?: string;

  private constructor(policies: PolicyStore, lookups: NeedLookups, callerWithoutToken?: string) {
    this.#policies = policies;
    this.#lookups = lookups;
    this.#callerWithoutToken = callerWithoutToken;
  }

  /**
   * The check over the store's collections, policies, entities and data sources. A request without a token
   * acts as `callerWithoutToken` when given, and is refused (401) otherwise.
   */
  static open(
    store: EntityStore,
    now: () => number,
    options: { callerWithoutToken?: string } = {},
  ): CollectionPermissions {
    const policies = PolicyStore.open(store, now);
    const collections = CollectionStore.open(store, now());
    const scans = ScanStore.open(store);
    const lookups: NeedLookups = {
      get root() {
        return collections.root().name;
      },
      collectionExists: (name) => collections.get(name) !== undefined,
      entityCollection: (guid) => store.get(guid)?.collectionId?.toLowerCase(),
      policyCollection: (id) => policies.get(id)?.properties?.collection?.referenceName?.toLowerCase(),
      dataSourceCollection: (name) => {
        const body = scans.get("datasource", "", name)?.body as
          | { properties?: { collection?: { referenceName?: string } } }
          | undefined;
        return body?.properties?.collection?.referenceName?.toLowerCase();
      },
    };
    return new CollectionPermissions(policies, lookups, options.callerWithoutToken);
  }

  /**
   * Makes each of `admins` (object ids) hold every role on the root collection, as the account's creator
   * does: the account's first administrators, who grant the others their roles through the policy API.
   */
  addRootAdmins(admins: readonly string[]): void {
    let policy = this.#policies.forCollection(this.#lookups.root);
    if (!policy?.id) return;
    let changed = false;
    for (const admin of admins) {
      for (const roleId of ROOT_ROLES) {
        const edit = withMember(policy, roleId, admin.toLowerCase());
        policy = edit.policy;
        changed ||= edit.changed;
      }
    }
    if (!changed) return;
    const { description = "", decisionRules = [], attributeRules = [] } = policy.properties ?? {};
    this.#policies.update(policy.id!, { description, decisionRules, attributeRules });
  }

  /**
   * Why the request may not go ahead (401 without a token, 403 without the role), if it may not; and the
   * request to hand on: the same one, a search narrowed to the collections the caller may read
   * (search/scope.ts), or a copy holding the body the check had to read (a body is read at most once;
   * `Request.clone` would do it too, but makes Deno warn about its legacy abort signal).
   */
  async check(request: Request): Promise<{ refusal?: EmulatorError; request: Request }> {
    let bytes: Uint8Array<ArrayBuffer> | undefined;
    const facts = {
      method: request.method,
      url: new URL(request.url),
      body: async () => {
        bytes ??= new Uint8Array(await request.arrayBuffer());
        try {
          return JSON.parse(new TextDecoder().decode(bytes));
        } catch {
          return undefined;
        }
      },
    };
    const { refusal, caller, policies } = await this.#decide(request, facts);
    if (
      !refusal && caller && policies && request.method === "POST" && SCOPED_SEARCH.test(facts.url.pathname)
    ) {
      const hidden = [...policies.keys()].filter((collection) =>
        !holdsRole(policies, { roleId: ROLE_IDS.dataReader, collection }, caller)
      );
      if (hidden.length > 0) {
        bytes = new TextEncoder().encode(JSON.stringify(scopedSearchBody(await facts.body(), hidden)));
      }
    }
    const { method, headers } = request;
    return {
      refusal,
      request: bytes === undefined ? request : new Request(request.url, { method, headers, body: bytes }),
    };
  }

  async #decide(request: Request, facts: RequestFacts): Promise<{
    refusal?: EmulatorError;
    caller?: string;
    policies?: Map<string, MetadataPolicy>;
  }> {
    const claims = bearerClaims(request.headers.get("authorization")) ??
      (this.#callerWithoutToken ? { oid: this.#callerWithoutToken } : undefined);
    const oid = typeof claims?.oid === "string" ? claims.oid : "";
    if (!claims || oid === "") {
      const refusal = new EmulatorError(
        401,
        "Unauthorized",
        "The emulator checks collection roles: send a bearer token whose oid claim names the caller.",
      );
      return { refusal };
    }
    const needs = await permissionsNeeded(facts, this.#lookups);
    const policies = new Map(
      this.#policies.list().map((p) => [String(p.properties?.collection?.referenceName).toLowerCase(), p]),
    );
    const need = needs.find((one) => !holdsRole(policies, one, oid));
    if (!need) return { caller: oid, policies };
    const who = typeof claims.name === "string" ? `${claims.name} (${oid})` : oid;
    const role = ROLE_NAMES[need.roleId] ?? need.roleId;
    const refusal = new EmulatorError(
      403,
      "Forbidden",
      `${who} may not ${facts.method.toUpperCase()} ${facts.url.pathname}: it needs the ${role} role on collection ` +
        `'${need.collection}' (held there or inherited from a parent); a collection admin can grant it ` +
        `with \`govcat policy add-member\`.`,
    );
    return { refusal };
  }
}
