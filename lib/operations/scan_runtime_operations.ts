/**
 * Operations on integration runtimes, in the `scan` group: create or replace one from a JSON payload file,
 * read, list and delete them, read a runtime's status, list or regenerate a self-hosted runtime's auth
 * keys, and switch a managed runtime's interactive query on or off.
 *
 * Auth keys are secrets. Reading them is what `listIntegrationRuntimeAuthKeys` is for, so they are its
 * result, but every key is registered with the logger first, so no diagnostic or error written afterwards
 * shows one; both operations carry `returnsSecrets` (not offered to a model over MCP), and regenerating a
 * key is destructive: nodes registered with the old key must register again.
 *
 * @module
 */
import { authKeySecrets } from "../catalog/scan_runtime_api.ts";
import type { IntegrationRuntime } from "../catalog/scan_resource_types.ts";
import { z } from "../deps/zod.ts";
import { checkName, hinted, NAME_RULE } from "./scan_inputs.ts";
import { resourceOperations } from "./scan_resource_operations.ts";
import { CREATE, defineOperation, type Operation, type OperationAnnotations, READ } from "./types.ts";

const HINT = "Check the name with `govcat scan listIntegrationRuntimes`.";
const RUNTIME_KINDS = ["Managed", "SelfHosted"];
const integrationRuntimeName = z.string().min(1).describe(`Name of the integration runtime (${NAME_RULE})`);

/** Switching interactive query sets a state: repeating it changes nothing more. */
const SWITCH: OperationAnnotations = {
  readOnly: false,
  destructive: false,
  idempotent: true,
  openWorld: true,
};

export const RUNTIME_RESOURCE_OPERATIONS: Operation[] = resourceOperations<IntegrationRuntime>({
  kebab: "integration-runtime",
  camel: "IntegrationRuntime",
  camelPlural: "IntegrationRuntimes",
  nameField: "integrationRuntimeName",
  noun: "integration runtime",
  summaries: {
    put: "Create an integration runtime (SelfHosted or Managed), or replace the one with this name, from a " +
      "JSON payload file",
    get: "Get an integration runtime: its kind and properties",
    list: "List every integration runtime of the account (all pages)",
    delete: "Delete an integration runtime; scans connected through it can no longer run",
  },
  description: 'The payload is {"kind": "SelfHosted", "properties": {"description": "…"}} or {"kind": ' +
    '"Managed", "properties": {"managedVirtualNetworkReference": {"referenceName": "defaultv2", "type": ' +
    '"ManagedVirtualNetworkReference"}, "typeProperties": {"computeProperties": {"location": "…"}}}}.',
  shape: 'an integration runtime {"kind": "SelfHosted" | "Managed", "properties": {…}}',
  kinds: RUNTIME_KINDS,
  hint: HINT,
  api: {
    put: (scan, name, body, signal) => scan.putIntegrationRuntime(name, body, signal),
    get: (scan, name, signal) => scan.getIntegrationRuntime(name, signal),
    list: (scan, signal) => scan.listIntegrationRuntimes({ signal }),
    delete: (scan, name, signal) => scan.deleteIntegrationRuntime(name, signal),
  },
});

export const getIntegrationRuntimeStatus = defineOperation({
  id: "scan.get-integration-runtime-status",
  group: "scan",
  command: "getIntegrationRuntimeStatus",
  aliases: ["get-integration-runtime-status"],
  summary: "Get the state of an integration runtime (and a managed one's interactive query)",
  input: z.object({ integrationRuntimeName }),
  annotations: READ,
  run: (ctx, input) =>
    hinted(
      HINT,
      () => ctx.catalog().scan.getIntegrationRuntimeStatus(input.integrationRuntimeName, ctx.signal),
    ),
});

export const listIntegrationRuntimeAuthKeys = defineOperation({
  id: "scan.list-integration-runtime-auth-keys",
  group: "scan",
  command: "listIntegrationRuntimeAuthKeys",
  aliases: ["list-integration-runtime-auth-keys"],
  summary: "Show the two auth keys a self-hosted integration runtime's nodes register with (secrets)",
  description: "Treat the output as a secret; diagnostics written after the call mask the keys.",
  input: z.object({ integrationRuntimeName }),
  annotations: { ...READ, returnsSecrets: true },
  run: async (ctx, input) => {
    const keys = await hinted(
      HINT,
      () => ctx.catalog().scan.listIntegrationRuntimeAuthKeys(input.integrationRuntimeName, ctx.signal),
    );
    for (const key of authKeySecrets(keys)) ctx.logger.addSecret(key);
    return keys;
  },
});

export const regenerateIntegrationRuntimeAuthKey = defineOperation({
  id: "scan.regenerate-integration-runtime-auth-key",
  group: "scan",
  command: "regenerateIntegrationRuntimeAuthKey",
  aliases: ["regenerate-integration-runtime-auth-key"],
  summary:
    "Replace one auth key of a self-hosted integration runtime (nodes using the old one must register " +
    "again)",
  description: "Answers the new key (the other null): treat the output as a secret.",
  input: z.object({
    integrationRuntimeName,
    keyName: z.enum(["authKey1", "authKey2"]).describe("Which key to replace: authKey1 or authKey2"),
  }),
  annotations: { ...CREATE, destructive: true, returnsSecrets: true },
  run: async (ctx, input) => {
    checkName("--integration-runtime-name", input.integrationRuntimeName);
    const keys = await hinted(
      HINT,
      () =>
        ctx.catalog().scan.regenerateIntegrationRuntimeAuthKey(
          input.integrationRuntimeName,
          input.keyName,
          ctx.signal,
        ),
    );
    for (const key of authKeySecrets(keys)) ctx.logger.addSecret(key);
    return keys;
  },
});

export const enableInteractiveQuery = defineOperation({
  id: "scan.enable-interactive-query",
  group: "scan",
  command: "enableInteractiveQuery",
  aliases: ["enable-interactive-query"],
  summary: "Turn interactive query on for a managed integration runtime (it stops after the idle minutes)",
  input: z.object({
    integrationRuntimeName,
    autoTerminationMinutes: z.number().int().min(1).optional().describe(
      "Idle minutes after which interactive query turns itself off (the service's default when left out)",
    ),
  }),
  annotations: SWITCH,
  run: (ctx, input) =>
    hinted(HINT, () =>
      ctx.catalog().scan.enableInteractiveQuery(input.integrationRuntimeName, {
        autoTerminationMinutes: input.autoTerminationMinutes,
        signal: ctx.signal,
      })),
});

export const disableInteractiveQuery = defineOperation({
  id: "scan.disable-interactive-query",
  group: "scan",
  command: "disableInteractiveQuery",
  aliases: ["disable-interactive-query"],
  summary: "Turn interactive query off for a managed integration runtime",
  input: z.object({ integrationRuntimeName }),
  annotations: SWITCH,
  run: (ctx, input) =>
    hinted(HINT, () => ctx.catalog().scan.disableInteractiveQuery(input.integrationRuntimeName, ctx.signal)),
});

/** The integration runtime operations, in the order `scan --help` lists them. */
export const SCAN_RUNTIME_OPERATIONS: Operation[] = [
  ...RUNTIME_RESOURCE_OPERATIONS,
  getIntegrationRuntimeStatus,
  listIntegrationRuntimeAuthKeys,
  regenerateIntegrationRuntimeAuthKey,
  enableInteractiveQuery,
  disableInteractiveQuery,
];
