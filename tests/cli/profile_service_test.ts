/**
 * The `profile` and `config` commands of `cli/profile_service.ts`: adding, removing and choosing the
 * default keep at most one default, names are unique, and the defaults shown are the loader's own.
 */
import assert from "node:assert/strict";
import { createProfileService } from "../../cli/profile_service.ts";
import { loadConfig } from "../../lib/config.ts";
import { withDir } from "../support/profiles_dir.ts";

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

Deno.test("config list shows as defaults exactly the values loadConfig uses when nothing is set", async () => {
  await withDir((_dir, env) => {
    const service = createProfileService({ env });
    const { settings } = service.configList() as {
      settings: Array<{ key: string; value: unknown; source: string }>;
    };
    const config = loadConfig({ CATALOG_ACCOUNT_NAME: "contoso" }) as unknown as Record<string, unknown>;
    for (const setting of settings.filter((s) => s.key !== "account-name")) {
      assert.equal(setting.source, "default", setting.key);
      const field = FIELD_OF_KEY[setting.key] ??
        setting.key.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
      const actual = config[field];
      // Unset optional values: undefined, an empty region, an empty origin list.
      const unset = actual === undefined || actual === "" || (Array.isArray(actual) && actual.length === 0);
      assert.deepEqual(setting.value, unset ? null : actual, setting.key);
    }
  });
});
