/**
 * The rules of `cli/profile_settings.ts` as `config set`, `profile add` and the file parser apply them: no
 * secret is ever stored, and values are validated like the environment variables they stand for.
 */
import assert from "node:assert/strict";
import { parseProfiles } from "../../cli/profile_file.ts";
import { createProfileService } from "../../cli/profile_service.ts";
import { UsageError } from "../../lib/core/errors.ts";
import { withDir } from "../support/profiles_dir.ts";

Deno.test("secrets are refused by config set and rejected in the file", async () => {
  await withDir((dir, env) => {
    const service = createProfileService({ env });
    service.add({ name: "prod", accountName: "contoso" });
    for (const key of ["client-secret", "CLOUD_CLIENT_SECRET", "mcp-auth-token", "password"]) {
      assert.throws(() => service.configSet(key, "s3cr3t-value"), UsageError);
    }
    assert.ok(!Deno.readTextFileSync(`${dir}/conf/profiles.json`).includes("s3cr3t"));
    assert.throws(
      () => parseProfiles('{"profiles":[{"name":"a","client-secret":"x"}]}', "/p.json"),
      /secret/,
    );
  });
});

Deno.test("values are validated like the environment variables they stand for", async () => {
  await withDir((_dir, env) => {
    const service = createProfileService({ env });
    assert.throws(
      () => service.add({ name: "p", accountName: "contoso.purview.azure.com" }),
      /CATALOG_ACCOUNT_NAME/,
    );
    service.add({ name: "p", accountName: "contoso" });
    assert.throws(() => service.configSet("timeout", "0"), /CATALOG_TIMEOUT/);
    assert.throws(() => service.configSet("region", "mars"), /CLOUD_REGION/);
    assert.throws(() => service.configSet("endpoint", "http://remote.example.com"), /CATALOG_ENDPOINT/);
    assert.throws(() => service.configSet("timout", "5"), /Did you mean "timeout"/);
    // A client id alone is fine: the tenant may come from the profile, the secret from the environment.
    service.configSet("client-id", "11111111-2222-3333-4444-555555555555");
    // The unified catalog's data asset calls have their own api-version, stored like the others.
    assert.throws(
      () => service.configSet("unified-assets-api-version", "latest"),
      /CATALOG_UNIFIED_ASSETS_API_VERSION/,
    );
    service.configSet("unified-assets-api-version", "2027-01-01-preview");
    assert.equal(
      (service.configGet("unified-assets-api-version") as { value: unknown }).value,
      "2027-01-01-preview",
    );
  });
});
