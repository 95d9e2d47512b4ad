/**
 * Which profile `cli/profile_selection.ts` selects and how it is applied: defaults < profile < environment,
 * `--profile` over `CATALOG_PROFILE` over the default, and the environment alone without a profiles file.
 */
import assert from "node:assert/strict";
import { overlayEnv, resolveProfileEnv } from "../../cli/profile_selection.ts";
import { createProfileService } from "../../cli/profile_service.ts";
import { loadConfig } from "../../lib/config/config.ts";
import { UsageError } from "../../lib/core/errors.ts";
import { withDir } from "../support/profiles_dir.ts";

Deno.test("precedence: defaults < profile < environment; --profile beats CATALOG_PROFILE beats default", async () => {
  await withDir((_dir, env) => {
    const service = createProfileService({ env });
    service.add({ name: "prod", accountName: "contoso", batchSize: 50 });
    service.add({ name: "dev", accountName: "devacct" });
    assert.equal(loadConfig(resolveProfileEnv(env).env).accountName, "contoso");
    assert.equal(loadConfig(resolveProfileEnv(env).env).batchSize, 50);
    assert.equal(loadConfig(resolveProfileEnv({ ...env, CATALOG_BATCH_SIZE: "7" }).env).batchSize, 7);
    assert.equal(loadConfig(resolveProfileEnv({ ...env, CATALOG_BATCH_SIZE: "" }).env).batchSize, 50);
    assert.equal(
      loadConfig(resolveProfileEnv({ ...env, CATALOG_PROFILE: "dev" }).env).accountName,
      "devacct",
    );
    assert.equal(
      loadConfig(resolveProfileEnv({ ...env, CATALOG_PROFILE: "dev" }, "prod").env).accountName,
      "contoso",
    );
    assert.equal(loadConfig(resolveProfileEnv({ ...env, CATALOG_PROFILE: "dev" }).env).maxRetries, 3);
    assert.throws(() => resolveProfileEnv(env, "pord"), /Did you mean "prod"/);
    assert.deepEqual(overlayEnv({ A: "1" }, undefined), { A: "1" });
  });
});

Deno.test("without a profiles file the environment alone is used", async () => {
  await withDir((_dir, env) => {
    assert.equal(resolveProfileEnv({ ...env, CATALOG_ACCOUNT_NAME: "x1x" }).env.CATALOG_ACCOUNT_NAME, "x1x");
    assert.throws(
      () => resolveProfileEnv(env, "prod"),
      (e: unknown) => e instanceof UsageError && /No profiles are defined/.test(e.hint ?? ""),
    );
  });
});
