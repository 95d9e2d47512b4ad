/**
 * The `profile` and `config` commands of `cli/profile_service.ts`: adding, removing and choosing the
 * default keep at most one default, names are unique, and the defaults shown are the loader's own.
 */
import assert from "node:assert/strict";
import { createProfileService } from "../../cli/profile_service.ts";
import { loadConfig } from "../../lib/config/config.ts";
import { withDir } from "../support/profiles_dir.ts";
import { PROFILE_KEYS } from "../../cli/profile_settings.ts";

Deno.test("remove and set_default keep exactly one default", async () => {
  await withDir((_dir, env) => {
    const service = createProfileService({ env });
    service.add({ name: "a", accountName: "aaa" });
    service.add({ name: "b", accountName: "bbb", setDefault: true });
    const list = service.list() as { profiles: { name: string; default: boolean }[] };
    assert.deepEqual(list.profiles.map((p) => [p.name, p.default]), [["a", false], ["b", true]]);
    service.setDefault("a");
    service.remove("a");
    assert.equal((service.list() as { active: string | null }).active, null);
    assert.throws(() => service.add({ name: "b", accountName: "bbb" }), /exists already/);
  });
});

/** Configuration fields whose name is not the camel case of the setting's key. */
const FIELD_OF_KEY: Record<string, string> = {
  timeout: "timeoutSeconds",
  log: "logLevel",
  "mcp-allowed-origins": "mcpAllowedOrigins",
};

/** A value for each setting's variable that differs from its default. */
const NON_DEFAULT_VALUE: Record<string, string> = {
  "tenant-id": "11111111-2222-3333-4444-555555555555",
  "client-id": "66666666-7777-8888-9999-000000000000",
  region: "usgov",
  "batch-size": "7",
  "max-retries": "1",
  timeout: "9",
  endpoint: "http://127.0.0.1:9",
  "unified-endpoint": "http://127.0.0.1:10",
  "api-version": "2024-05-01-preview",
  "unified-api-version": "2024-03-01-preview",
  "unified-assets-api-version": "2027-01-01-preview",
  "token-scope": "https://example.invalid/.default",
  "rate-limit": "3",
  log: "debug",
  "mcp-transport": "http",
  "mcp-host": "127.0.0.2",
  "mcp-port": "9123",
  "mcp-read-only": "true",
  "mcp-tools": "search_entities",
  "mcp-allowed-origins": "https://app.example.com",
};

const fieldOf = (key: string) =>
  FIELD_OF_KEY[key] ?? key.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/** Variables a setting is only valid with: the service principal is all three of its variables or none. */
const SERVICE_PRINCIPAL = {
  CLOUD_TENANT_ID: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee",
  CLOUD_CLIENT_ID: "ffffffff-bbbb-cccc-dddd-eeeeeeeeeeee",
  CLOUD_CLIENT_SECRET: "not-a-real-secret",
};

Deno.test("each setting names the configuration field its variable fills", () => {
  const keys = PROFILE_KEYS.map((k) => k.key).filter((key) => key !== "account-name");
  assert.deepEqual(keys.filter((key) => !(key in NON_DEFAULT_VALUE)), [], "a sample value for every setting");
  for (const { key, variable } of PROFILE_KEYS.filter((k) => k.key !== "account-name")) {
    const base = {
      CATALOG_ACCOUNT_NAME: "contoso",
      ...(variable in SERVICE_PRINCIPAL ? SERVICE_PRINCIPAL : {}),
    };
    const before = loadConfig(base) as unknown as Record<string, unknown>;
    const after = loadConfig({ ...base, [variable]: NON_DEFAULT_VALUE[key] }) as unknown as Record<
      string,
      unknown
    >;
    // The field compared below is the one the variable sets: a misnamed field would stay undefined on both.
    assert.notDeepEqual(
      after[fieldOf(key)],
      before[fieldOf(key)],
      `${key} (${variable}) sets ${fieldOf(key)}`,
    );
  }
});

Deno.test("config list shows as defaults exactly the values loadConfig uses when nothing is set", async () => {
  await withDir((_dir, env) => {
    const service = createProfileService({ env });
    const { settings } = service.configList() as {
      settings: Array<{ key: string; value: unknown; source: string }>;
    };
    const config = loadConfig({ CATALOG_ACCOUNT_NAME: "contoso" }) as unknown as Record<string, unknown>;
    for (const setting of settings.filter((s) => s.key !== "account-name")) {
      assert.equal(setting.source, "default", setting.key);
      const actual = config[fieldOf(setting.key)];
      // Unset optional values: undefined, an empty region, an empty origin list.
      const unset = actual === undefined || actual === "" || (Array.isArray(actual) && actual.length === 0);
      assert.deepEqual(setting.value, unset ? null : actual, setting.key);
    }
  });
});
