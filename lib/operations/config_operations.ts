/**
 * Operations of the `config` group: `config set <key> <value>`, `config get <key>` and
 * `config list` on the active profile (`--profile`, `CATALOG_PROFILE`, else the default). Keys stand for
 * the configuration variables (`account-name` → CATALOG_ACCOUNT_NAME, `timeout` → CATALOG_TIMEOUT, …) and are
 * validated with the same rules; secrets are refused. Implemented by the command line's profile service.
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { LOCAL_WRITE, profileService } from "./profile_operations.ts";
import { defineOperation, type Operation } from "./types.ts";

const key = z.string().min(1).describe(
  "Setting key: account-name, tenant-id, client-id, region, batch-size, max-retries, timeout, endpoint, " +
    "unified-endpoint, api-version, unified-api-version, unified-assets-api-version, token-scope, rate-limit, " +
    "log, mcp-… (or the variable name)",
);

export const configSet = defineOperation({
  id: "config.set",
  group: "config",
  command: "set",
  summary: "Set a setting of the active profile (an empty value removes it); secrets are refused",
  input: z.object({ key, value: z.string().describe("New value; empty to remove the setting") }),
  positionals: ["key", "value"],
  annotations: LOCAL_WRITE,
  run: (context, input) => Promise.resolve(profileService(context).configSet(input.key, input.value)),
});

export const configGet = defineOperation({
  id: "config.get",
  group: "config",
  command: "get",
  summary: "Show a setting's effective value and whether it comes from the environment, profile or default",
  input: z.object({ key }),
  positionals: ["key"],
  annotations: { ...LOCAL_WRITE, readOnly: true },
  run: (context, input) => Promise.resolve(profileService(context).configGet(input.key)),
});

export const configList = defineOperation({
  id: "config.list",
  group: "config",
  command: "list",
  summary: "List every setting with its effective value and source",
  input: z.object({}),
  annotations: { ...LOCAL_WRITE, readOnly: true },
  run: (context) => Promise.resolve(profileService(context).configList()),
});

export const CONFIG_OPERATIONS: Operation[] = [configSet, configGet, configList];
