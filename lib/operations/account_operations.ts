/**
 * Operations of the `account` group: the account API (2019-11-01-preview) beyond collections. Its
 * properties (get, update the friendly name), its access keys (list, regenerate one) and its resource set
 * rule configuration (list, get, put, delete).
 *
 * The access keys are secrets. Listing them is what `list-keys` is for, so they are its result, but every
 * key is registered with the logger first (`logger.addSecret`), so no diagnostic or error written
 * afterwards shows one.
 *
 * @module
 */
import {
  type AccessKeys,
  accessKeySecrets,
  type AccessKeyType,
  type ResourceSetRuleConfig,
} from "../catalog/account_api.ts";
import { z } from "../deps/zod.ts";
import { describeJson, isPlainObject, payloadError, readJsonFile } from "./payload_files.ts";
import {
  CREATE,
  defineOperation,
  DELETE,
  type Operation,
  type OperationAnnotations,
  type OperationContext,
  READ,
  UPSERT,
} from "./types.ts";

export const getAccount = defineOperation({
  id: "account.get",
  group: "account",
  command: "get",
  aliases: ["show", "get-properties"],
  summary: "The account's properties: name, friendly name, location, endpoints, provisioning state",
  input: z.object({}),
  annotations: READ,
  run: (ctx) => ctx.catalog().account.get(ctx.signal),
});

export const updateAccount = defineOperation({
  id: "account.update",
  group: "account",
  command: "update",
  aliases: ["update-properties"],
  summary: "Change the account's friendly name (the one property the data plane may change)",
  input: z.object({
    friendlyName: z.string().trim().min(1).describe("The account's new friendly name"),
  }),
  annotations: UPSERT,
  run: (ctx, input) => ctx.catalog().account.update({ friendlyName: input.friendlyName }, ctx.signal),
});

/** Registers every key with the logger, so nothing written later shows one; returns the keys. */
function guarded(ctx: OperationContext, keys: AccessKeys): AccessKeys {
  for (const secret of accessKeySecrets(keys)) ctx.logger.addSecret(secret);
  return keys;
}

export const listAccountKeys = defineOperation({
  id: "account.list-keys",
  group: "account",
  command: "list-keys",
  aliases: ["listkeys", "get-access-keys"],
  summary: "The account's two access keys (Atlas Kafka connection strings); secrets, never logged",
  description: "Prints both connection strings: treat the output as a secret. Diagnostics and errors " +
    "written after the call mask them.",
  input: z.object({}),
  annotations: { ...READ, returnsSecrets: true },
  run: async (ctx) => guarded(ctx, await ctx.catalog().account.listKeys(ctx.signal)),
});

const KEY_TYPES: Record<string, AccessKeyType> = {
  primary: "PrimaryAtlasKafkaKey",
  secondary: "SecondaryAtlasKafkaKey",
};

/** Destructive: the key replaced stops working, and nothing brings it back. */
const REGENERATE: OperationAnnotations = { ...CREATE, destructive: true, returnsSecrets: true };

export const regenerateAccountKey = defineOperation({
  id: "account.regenerate-key",
  group: "account",
  command: "regenerate-key",
  aliases: ["regeneratekeys", "regenerate-keys", "regenerate-access-key"],
  summary: "Replace the primary or the secondary access key with a new one (the old one stops working)",
  description: "Answers both keys, the new one included: treat the output as a secret. Clients still " +
    "using the replaced key lose access, so switch them to the other key first.",
  input: z.object({
    keyType: z.enum(["primary", "secondary"]).describe(
      "Which key to replace: primary (PrimaryAtlasKafkaKey) or secondary (SecondaryAtlasKafkaKey)",
    ),
  }),
  annotations: REGENERATE,
  run: async (ctx, input) =>
    guarded(ctx, await ctx.catalog().account.regenerateKey(KEY_TYPES[input.keyType], ctx.signal)),
});

export const listResourceSetRules = defineOperation({
  id: "account.list-resource-set-rules",
  group: "account",
  command: "list-resource-set-rules",
  aliases: ["listResourceSetRules"],
  summary: "The account's resource set rule configurations (at most one: the default)",
  input: z.object({}),
  annotations: READ,
  run: async (ctx) => {
    const page = await ctx.catalog().account.listResourceSetRules(undefined, ctx.signal);
    return { count: page.value?.length ?? 0, value: page.value ?? [] };
  },
});

export const getResourceSetRule = defineOperation({
  id: "account.get-resource-set-rule",
  group: "account",
  command: "get-resource-set-rule",
  aliases: ["getResourceSetRule"],
  summary: "The account's resource set rule configuration (path patterns, advanced resource sets)",
  input: z.object({}),
  annotations: READ,
  run: (ctx) => ctx.catalog().account.getResourceSetRule(ctx.signal),
});

export const putResourceSetRule = defineOperation({
  id: "account.put-resource-set-rule",
  group: "account",
  command: "put-resource-set-rule",
  aliases: ["putResourceSetRule", "create-or-update-resource-set-rule"],
  summary: "Create or replace the account's resource set rule configuration from a JSON file",
  description: "The file holds a ResourceSetRuleConfig: pathPatternConfig (enableDefaultPatterns and " +
    "createdBy required; acceptedPatterns, rejectedPatterns, regexReplacers, ...) and advancedResourceSet " +
    "({resourceSetProcessing: Default | Advanced}). It replaces the whole configuration.",
  input: z.object({
    payloadFile: z.string().min(1).describe("JSON file with the ResourceSetRuleConfig"),
  }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    const payload = await readJsonFile(ctx, input.payloadFile, "--payload-file");
    if (!isPlainObject(payload)) {
      throw payloadError(
        input.payloadFile,
        'a JSON object {"pathPatternConfig": {...}, "advancedResourceSet": {...}}',
        describeJson(payload),
      );
    }
    return ctx.catalog().account.putResourceSetRule(payload as ResourceSetRuleConfig, ctx.signal);
  },
});

export const deleteResourceSetRule = defineOperation({
  id: "account.delete-resource-set-rule",
  group: "account",
  command: "delete-resource-set-rule",
  aliases: ["deleteResourceSetRule"],
  summary: "Delete the account's resource set rule configuration",
  input: z.object({}),
  annotations: DELETE,
  run: async (ctx) => ({ deleted: await ctx.catalog().account.deleteResourceSetRule(ctx.signal) }),
});

/** Every operation of the `account` group, in the order `--help` lists them. */
export const ACCOUNT_OPERATIONS: Operation[] = [
  getAccount,
  updateAccount,
  listAccountKeys,
  regenerateAccountKey,
  listResourceSetRules,
  getResourceSetRule,
  putResourceSetRule,
  deleteResourceSetRule,
];
