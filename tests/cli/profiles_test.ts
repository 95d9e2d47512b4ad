/**
 * The profile store and resolution of `cli/profiles.ts`: file location, atomic writes with private
 * permissions, corrupt files left untouched, no secrets, precedence and the bounded token check.
 */
import assert from "node:assert/strict";
import {
  configDir,
  createProfileService,
  overlayEnv,
  parseProfiles,
  ProfileStore,
  resolveProfileEnv,
  tokenIdentity,
  tokenWithin,
} from "../../cli/profiles.ts";
import { loadConfig } from "../../lib/config.ts";
import { ConfigError, UsageError } from "../../lib/errors.ts";
import type { TokenProvider } from "../../lib/auth.ts";

async function withDir(test: (dir: string, env: Record<string, string>) => Promise<void> | void) {
  const dir = await Deno.makeTempDir({ prefix: "govcat-profiles-" });
  try {
    await test(dir, { GOVCAT_CONFIG_DIR: `${dir}/conf` });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("configDir honours GOVCAT_CONFIG_DIR, APPDATA on Windows, XDG_CONFIG_HOME, then ~/.config", () => {
  assert.equal(configDir({ GOVCAT_CONFIG_DIR: "/x", HOME: "/h" }, "linux"), "/x");
  assert.equal(configDir({ XDG_CONFIG_HOME: "/xdg", HOME: "/h" }, "linux"), "/xdg/govcat");
  assert.equal(configDir({ HOME: "/h" }, "darwin"), "/h/.config/govcat");
  assert.equal(
    configDir({ APPDATA: "C:\\Users\\a\\AppData\\Roaming" }, "windows"),
    "C:\\Users\\a\\AppData\\Roaming\\govcat",
  );
  assert.throws(() => configDir({}, "linux"), ConfigError);
});

Deno.test("the store writes atomically with 0600 in a 0700 directory and leaves no temp file", async () => {
  await withDir((dir, env) => {
    const service = createProfileService({ env });
    service.add({ name: "prod", accountName: "contoso", region: "usgov", batchSize: 50 });
    const path = `${dir}/conf/profiles.json`;
    const data = JSON.parse(Deno.readTextFileSync(path));
    assert.deepEqual(data.profiles[0], {
      name: "prod",
      default: true,
      "account-name": "contoso",
      region: "usgov",
      "batch-size": 50,
    });
    assert.deepEqual([...Deno.readDirSync(`${dir}/conf`)].map((e) => e.name), ["profiles.json"]);
    if (Deno.build.os !== "windows") {
      assert.equal(Deno.statSync(path).mode! & 0o777, 0o600);
      assert.equal(Deno.statSync(`${dir}/conf`).mode! & 0o077, 0, "directory private to the user");
    }
  });
});

Deno.test("a corrupt or wrongly shaped file is reported with its path and left byte-for-byte untouched", async () => {
  await withDir((dir, env) => {
    Deno.mkdirSync(`${dir}/conf`);
    const path = `${dir}/conf/profiles.json`;
    for (
      const content of [
        '{"profiles": [',
        '{"profiles": {"a": 1}}',
        '{"profiles":[{"name":"a","timeout":"x"}]}',
      ]
    ) {
      Deno.writeTextFileSync(path, content);
      const service = createProfileService({ env });
      for (
        const attempt of [
          () => service.add({ name: "b", accountName: "contoso" }),
          () => service.configSet("timeout", "5"),
          () => service.setDefault("a"),
          () => service.list(),
          () => resolveProfileEnv(env),
        ]
      ) {
        assert.throws(attempt, (e: unknown) => {
          assert.ok(e instanceof ConfigError);
          assert.equal(e.exitCode, 2);
          assert.ok(e.message.includes(path), e.message);
          return true;
        });
      }
      assert.equal(Deno.readTextFileSync(path), content);
    }
  });
});

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
  });
});

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

Deno.test("tokenWithin gives up after its timeout even when the credential never answers", async () => {
  const hanging: TokenProvider = {
    kind: "chain",
    description: "test",
    getToken: () => new Promise(() => {}),
  };
  const started = Date.now();
  const outcome = await tokenWithin(hanging, 50);
  assert.equal(outcome.ok, false);
  assert.ok(Date.now() - started < 2000);
});

Deno.test("tokenIdentity names the user or app and never returns the token", () => {
  const payload = btoa(JSON.stringify({ upn: "ana@contoso.com", tid: "t-1", exp: 0 })).replace(/=+$/, "");
  const identity = tokenIdentity(`eyJhbGciOiJub25lIn0.${payload}.sig`);
  assert.equal(identity.user, "ana@contoso.com");
  assert.equal(identity.tenantId, "t-1");
  assert.ok(!JSON.stringify(identity).includes("sig"));
  assert.deepEqual(tokenIdentity("opaque"), {});
});

Deno.test("status reports the identity from a provider without the token", async () => {
  await withDir(async (_dir, env) => {
    createProfileService({ env }).add({ name: "prod", accountName: "contoso" });
    const payload = btoa(JSON.stringify({ appid: "app-1" }));
    const token = `h.${payload}.s`;
    const service = createProfileService({
      env,
      tokenProvider: () => ({ kind: "chain", description: "fake", getToken: () => Promise.resolve(token) }),
    });
    const status = await service.status() as Record<string, unknown>;
    assert.equal(status.profile, "prod");
    assert.equal(status.authenticated, true);
    assert.deepEqual(status.identity, { application: "app-1" });
    assert.ok(!JSON.stringify(status).includes(token));
  });
});

Deno.test("the file store ignores a missing file and round-trips", async () => {
  await withDir((dir) => {
    const store = new ProfileStore(`${dir}/new/profiles.json`);
    assert.deepEqual(store.read(), { profiles: [] });
    store.write({ profiles: [{ name: "x", default: true, settings: { "account-name": "xyz" } }] });
    assert.equal(store.read().profiles[0].settings["account-name"], "xyz");
  });
});
