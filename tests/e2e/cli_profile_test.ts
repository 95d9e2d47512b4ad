/**
 * Connection profiles the way a user works with them: govcat as a subprocess, GOVCAT_CONFIG_DIR in a
 * temporary directory, and the emulator as the catalog reached only through a profile.
 */
import assert from "node:assert/strict";
import { startEmulator } from "../../lib/emulator/mod.ts";
import { runGovcat } from "../support/govcat_process.ts";
import { toCliRun } from "../support/cli_harness.ts";

async function withConfigDir(
  test: (
    govcat: (env: Record<string, string>, ...args: string[]) => ReturnType<typeof run>,
    dir: string,
  ) => Promise<void>,
) {
  const dir = await Deno.makeTempDir({ prefix: "govcat-profile-e2e-" });
  try {
    await test((env, ...args) => run({ GOVCAT_CONFIG_DIR: dir, ...env }, args), dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function run(env: Record<string, string>, args: string[]) {
  return toCliRun(args, await runGovcat(args, env));
}

Deno.test("profile add, list_profiles, set_default, status and remove", async () => {
  await withConfigDir(async (govcat, dir) => {
    const added = await govcat(
      {},
      "profile",
      "add",
      "--name=prod",
      "--account-name=contoso",
      "--region=usgov",
    );
    assert.equal(added.code, 0, added.stderr);
    assert.equal(added.json.added.default, true, "the first profile becomes the default");
    const dev = await govcat(
      {},
      "profile",
      "add",
      "--name",
      "dev",
      "--account-name=devacct",
      "--tenant-id=72f988bf-86f1-41af-91ab-2d7cd011db47",
      "--batch-size=25",
    );
    assert.equal(dev.code, 0, dev.stderr);

    const listed = await govcat({}, "profile", "list_profiles");
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(listed.json.active, "prod");
    assert.deepEqual(listed.json.profiles.map((p: { name: string }) => p.name), ["prod", "dev"]);

    assert.equal((await govcat({}, "profile", "set_default", "dev")).code, 0);
    assert.equal((await govcat({}, "profile", "list-profiles")).json.active, "dev");

    const typo = await govcat({}, "profile", "set_default", "dve");
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /unknown profile "dve".*Did you mean "dev"\?/);

    // A loopback endpoint needs no token: status says so and answers at once.
    assert.equal((await govcat({}, "config", "set", "endpoint", "http://127.0.0.1:9")).code, 0);
    const status = await govcat({}, "profile", "status");
    assert.equal(status.code, 0, status.stderr);
    assert.equal(status.json.profile, "dev");
    assert.equal(status.json.account, "devacct");
    assert.equal(status.json.endpoint, "http://127.0.0.1:9");
    assert.equal(status.json.credential.kind, "none");
    assert.match(status.json.token, /not needed/);

    const removed = await govcat({}, "profile", "remove", "--confirm", "dev");
    assert.equal(removed.code, 0, removed.stderr);
    const after = await govcat({}, "profile", "list_profiles");
    assert.deepEqual(after.json.profiles.map((p: { name: string }) => p.name), ["prod"]);
    assert.ok(!Deno.readTextFileSync(`${dir}/profiles.json`).includes("devacct"));
  });
});

Deno.test("config set, get and list validate values and refuse secrets", async () => {
  await withConfigDir(async (govcat) => {
    const none = await govcat({}, "config", "set", "timeout", "60");
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no profile is selected/);

    await govcat({}, "profile", "add", "--name=prod", "--account-name=contoso");
    const set = await govcat({}, "config", "set", "timeout", "60");
    assert.equal(set.code, 0, set.stderr);
    assert.equal(set.json.value, 60);

    for (
      const [key, value, pattern] of [
        ["timeout", "abc", /integer/],
        ["max-retries", "99", /CATALOG_MAX_RETRIES.*0 to 10/],
        ["region", "mars", /CLOUD_REGION/],
        ["tenant-id", "nope", /CLOUD_TENANT_ID.*GUID/],
        ["timout", "5", /Did you mean "timeout"/],
        ["client-secret", "hunter22", /never stores secrets/],
      ]
    ) {
      const bad = await govcat({}, "config", "set", key as string, value as string);
      assert.equal(bad.code, 2, `${key}=${value}`);
      assert.match(bad.stderr, pattern as RegExp);
    }

    const got = await govcat({}, "config", "get", "timeout");
    assert.deepEqual([got.json.value, got.json.source], [60, "profile"]);
    const fromEnv = await govcat({ CATALOG_TIMEOUT: "5" }, "config", "get", "CATALOG_TIMEOUT");
    assert.deepEqual([fromEnv.json.value, fromEnv.json.source, fromEnv.json.profileValue], [
      5,
      "environment",
      60,
    ]);

    const list = await govcat({}, "config", "list");
    assert.equal(list.code, 0, list.stderr);
    const byKey = Object.fromEntries(list.json.settings.map((s: { key: string }) => [s.key, s]));
    assert.equal(byKey["account-name"].value, "contoso");
    assert.deepEqual([byKey["batch-size"].value, byKey["batch-size"].source], [100, "default"]);
    assert.deepEqual([byKey["mcp-read-only"].value, byKey["mcp-transport"].value], [false, "stdio"]);
    assert.equal(byKey["tenant-id"].value, null, "no built-in tenant");
    assert.ok(!("client-secret" in byKey));
  });
});

Deno.test("precedence: a profile alone reaches the emulator; env and --profile override it", async () => {
  const emulator = await startEmulator({ seed: false });
  try {
    await withConfigDir(async (govcat) => {
      await govcat({}, "profile", "add", "--name=emu", "--account-name=emulator");
      assert.equal((await govcat({}, "config", "set", "endpoint", emulator.url)).code, 0);
      await govcat({}, "profile", "add", "--name=broken", "--account-name=other");
      assert.equal(
        (await govcat({}, "config", "set", "endpoint", "http://127.0.0.1:9", "--profile=broken")).code,
        0,
      );

      // Profile only: no CATALOG_* variable at all; the emulator answers 404 for an unknown GUID.
      const missing = "00000000-0000-0000-0000-000000000000";
      const viaProfile = await govcat({}, "entity", "get", `--guid=${missing}`);
      assert.equal(viaProfile.code, 1, viaProfile.stderr);
      assert.match(viaProfile.stderr, /status: 404/);
      const before = emulator.faults.stats().total;
      assert.ok(before > 0, "the request reached the emulator through the profile");

      // The environment overrides the profile's endpoint.
      const envWins = await govcat(
        { CATALOG_ENDPOINT: "http://127.0.0.1:9" },
        "entity",
        "get",
        `--guid=${missing}`,
      );
      assert.notEqual(envWins.code, 0);
      assert.doesNotMatch(envWins.stderr, /status: 404/);
      assert.equal(emulator.faults.stats().total, before, "the emulator was not asked");

      // CATALOG_PROFILE selects another profile, and --profile beats it.
      const viaEnv = await govcat({ CATALOG_PROFILE: "broken" }, "config", "get", "account-name");
      assert.equal(viaEnv.json.value, "other");
      const viaFlag = await govcat(
        { CATALOG_PROFILE: "broken" },
        "entity",
        "get",
        `--guid=${missing}`,
        "--profile=emu",
      );
      assert.match(viaFlag.stderr, /status: 404/);
      const afterFlag = emulator.faults.stats().total;
      assert.ok(afterFlag > before);

      // Written before the command, as users of other CLIs type it, --profile works the same.
      const leading = await govcat(
        { CATALOG_PROFILE: "broken" },
        "--profile",
        "emu",
        "entity",
        "get",
        `--guid=${missing}`,
      );
      assert.match(leading.stderr, /status: 404/);
      assert.ok(emulator.faults.stats().total > afterFlag, "the leading --profile reached the emulator");

      const unknown = await govcat({}, "entity", "get", `--guid=${missing}`, "--profile=emx");
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /Did you mean "emu"\?/);
    });
  } finally {
    await emulator.close();
  }
});

Deno.test("a corrupt profiles file fails every command that needs it and is left untouched", async () => {
  await withConfigDir(async (govcat, dir) => {
    const path = `${dir}/profiles.json`;
    const content = '{"version": 1, "profiles": [ {"name": "prod", ';
    Deno.writeTextFileSync(path, content);
    const before = Deno.readFileSync(path);
    for (
      const args of [
        ["profile", "add", "--name=x", "--account-name=contoso"],
        ["profile", "list_profiles"],
        ["profile", "set_default", "prod"],
        ["profile", "remove", "--confirm", "prod"],
        ["profile", "status"],
        ["config", "set", "timeout", "5"],
        ["config", "list"],
        ["entity", "get", "--guid=00000000-0000-0000-0000-000000000000"],
      ]
    ) {
      const result = await govcat({ CATALOG_ENDPOINT: "http://127.0.0.1:9" }, ...args);
      assert.equal(result.code, 2, args.join(" "));
      assert.ok(result.stderr.includes(path), result.stderr);
      assert.match(result.stderr, /not valid JSON/);
    }
    assert.deepEqual(Deno.readFileSync(path), before);
  });
});

Deno.test("govcat serve applies --profile and refuses an unknown one before listening", async () => {
  await withConfigDir(async (govcat) => {
    await govcat({}, "profile", "add", "--name=emu", "--account-name=emulator");
    const unknown = await govcat({}, "serve", "--profile=emx");
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown profile "emx".*Did you mean "emu"\?/);
    assert.equal((await govcat({}, "config", "set", "mcp-port", "70000", "--profile=emu")).code, 2);
    assert.equal((await govcat({}, "config", "set", "mcp-transport", "carrier-pigeon")).code, 2);
    // A bad value from the profile is validated by serve too (hand-edited file): exit 2, naming it.
    await govcat({}, "config", "set", "mcp-host", "0.0.0.0");
    const exposed = await govcat({}, "serve", "--transport=http");
    assert.equal(exposed.code, 2, exposed.stderr);
    assert.match(exposed.stderr, /CATALOG_MCP_AUTH_TOKEN/);
  });
});
