/**
 * The account area (api-version 2019-11-01-preview), mounted without a prefix: the emulated account's
 * properties (`GET /account/`, and `PATCH` to change its friendly name), its two Atlas Kafka access keys
 * (`POST /account/listkeys`, `POST /account/regeneratekeys`), the same four at the host's root as the
 * service answers them (`GET /`, `PATCH /`, `POST /listkeys`, `POST /regeneratekeys`; see
 * {@link ROOT_ROUTES}) and its resource set rule configuration
 * (`/account/resourceSetRuleConfigs`: list, and get, create or replace, delete the default one). State is
 * kept in {@link AccountStore}, so what is changed is read back, also after a restart on a data file.
 * The 2023-10-01-preview additions are mounted here too: contact group definitions and contact assignments
 * (`contacts.ts`), domains and feature flags (`domains.ts`).
 *
 * Errors use the account API's `{"error": {code, message, target, details}}` shape (the server picks it
 * for every `/account` path); the contract names no codes, so these say what went wrong.
 *
 * @module
 */
import { accountBody, type AccountChange } from "./body.ts";
import { EMULATOR_ACCOUNT_NAME } from "./name.ts";
import { contactRoutes } from "./contacts.ts";
import { domainRoutes } from "./domains.ts";
import { AccountStore, type KeySlot } from "./store.ts";
import { CollectionStore } from "../collections/store.ts";
import type { ApiArea } from "../area.ts";
import { EmulatorError, jsonResponse } from "../errors.ts";
import { checkResourceSetRuleConfig, RULE_CONFIG_NAME, storedRuleConfig } from "./rules.ts";
import { invalid, objectBody } from "./request.ts";
import type { RouteDefinition } from "../router.ts";

export { EMULATOR_ACCOUNT_NAME };
export { DEFAULT_ACCOUNT_FRIENDLY_NAME } from "./body.ts";

const RULES_PATH = "/account/resourceSetRuleConfigs";
const RULE_SETTING = "resourceSetRuleConfig";

/**
 * Where the service itself answers the account's properties and keys: at the root of the account's host
 * (`https://{account}.purview.azure.com/?api-version=2019-11-01-preview`, `/listkeys`, `/regeneratekeys`),
 * as Microsoft's recorded live sessions show (Azure/azure-sdk-for-net
 * `sdk/purview/Azure.Analytics.Purview.Account/tests/SessionRecords/AccountsClientTest/{GetTask,UpdateTask,ListKeysTask,RegenerateKeysTask}.json`;
 * Azure/azure-sdk-for-js
 * `sdk/purview/purview-administration-rest/recordings/node/get_account_info/recording_should_get_the_account_info.json`).
 * Each is the same route as its `/account` spelling, which the emulator keeps serving.
 */
const ROOT_ROUTES: Record<string, string> = {
  "/account": "/",
  "/account/listkeys": "/listkeys",
  "/account/regeneratekeys": "/regeneratekeys",
};

/** Account properties, keys and resource set rules. Endpoints name the emulator's own URL. */
export const accountArea: ApiArea = (deps) => {
  const createdAt = new Date(deps.now()).toISOString();
  const store = new AccountStore(deps.store.database, EMULATOR_ACCOUNT_NAME);
  const properties = ({ url }: { url: URL }) => {
    const change = store.get<AccountChange>("accountChange");
    return jsonResponse(accountBody(url.origin, createdAt, change));
  };
  const routes: RouteDefinition[] = [
    // The router ignores a trailing slash, so these also answer the contract's `/account/`.
    { method: "GET", path: "/account", handler: properties },
    {
      method: "PATCH",
      path: "/account",
      handler: async (ctx) => {
        const body = await objectBody(ctx, '{"friendlyName": "<name>"}');
        const friendlyName = body.friendlyName;
        if (friendlyName !== undefined && friendlyName !== null) {
          if (typeof friendlyName !== "string" || friendlyName.trim() === "") {
            throw invalid("InvalidAccountUpdate", "friendlyName must be a non-empty string.", "friendlyName");
          }
          store.put("accountChange", { friendlyName, at: new Date(deps.now()).toISOString() });
        }
        return properties(ctx);
      },
    },
    { method: "POST", path: "/account/listkeys", handler: () => jsonResponse(store.keys()) },
    {
      method: "POST",
      path: "/account/regeneratekeys",
      handler: async (ctx) => {
        const body = await objectBody(ctx, '{"keyType": "PrimaryAtlasKafkaKey"}');
        return jsonResponse(store.regenerate(keySlot(body.keyType)));
      },
    },
    {
      method: "GET",
      path: RULES_PATH,
      handler: () => {
        const rule = store.get<Record<string, unknown>>(RULE_SETTING);
        return jsonResponse({ value: rule ? [rule] : [], count: rule ? 1 : 0 });
      },
    },
    {
      method: "GET",
      path: `${RULES_PATH}/${RULE_CONFIG_NAME}`,
      handler: () => {
        const rule = store.get<Record<string, unknown>>(RULE_SETTING);
        if (!rule) {
          throw new EmulatorError(
            404,
            "ResourceSetRuleConfigNotFound",
            `The account has no resource set rule configuration; create it with PUT ${RULES_PATH}/` +
              `${RULE_CONFIG_NAME}.`,
          );
        }
        return jsonResponse(rule);
      },
    },
    {
      method: "PUT",
      path: `${RULES_PATH}/${RULE_CONFIG_NAME}`,
      handler: async (ctx) => {
        const body = await objectBody(ctx, '{"pathPatternConfig": {...}, "advancedResourceSet": {...}}');
        const problem = checkResourceSetRuleConfig(body);
        if (problem) throw invalid("InvalidResourceSetRuleConfig", problem.message, problem.target);
        const rule = storedRuleConfig(body, deps.now());
        store.put(RULE_SETTING, rule);
        return jsonResponse(rule);
      },
    },
    {
      method: "DELETE",
      path: `${RULES_PATH}/${RULE_CONFIG_NAME}`,
      // 200 when a configuration was deleted, 204 when there was none (the contract declares both).
      handler: () => new Response(null, { status: store.remove(RULE_SETTING) ? 200 : 204 }),
    },
  ];
  let collectionStore: CollectionStore | undefined;
  const collections = () => collectionStore ??= CollectionStore.open(deps.store, deps.now());
  routes.push(...contactRoutes(deps, store, collections), ...domainRoutes(collections));
  const atRoot = routes.filter((route) => ROOT_ROUTES[route.path] !== undefined)
    .map((route) => ({ ...route, path: ROOT_ROUTES[route.path] }));
  return [...routes, ...atRoot];
};

/**
 * The key `keyType` names. The contract's values are PrimaryAtlasKafkaKey and SecondaryAtlasKafkaKey, an
 * open enum (`modelAsString`); its own example sends `PrimaryKey`, so any value starting with Primary or
 * Secondary (any case) names that key.
 */
function keySlot(keyType: unknown): KeySlot {
  if (typeof keyType === "string") {
    if (/^primary/i.test(keyType)) return "primary";
    if (/^secondary/i.test(keyType)) return "secondary";
  }
  throw invalid(
    "InvalidKeyType",
    `keyType must be PrimaryAtlasKafkaKey or SecondaryAtlasKafkaKey, got ${JSON.stringify(keyType ?? null)}.`,
    "keyType",
  );
}
