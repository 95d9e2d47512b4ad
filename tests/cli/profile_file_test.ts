/**
 * The profiles file of `cli/profile_file.ts`: its location, atomic writes with private permissions, a
 * missing file read as empty, and corrupt or wrongly shaped files reported with their path and left untouched.
 */
import assert from "node:assert/strict";
import { configDir, profilesPath, ProfileStore } from "../../cli/profile_file.ts";
import { resolveProfileEnv } from "../../cli/profile_selection.ts";
import { createProfileService } from "../../cli/profile_service.ts";
import { ConfigError } from "../../lib/core/errors.ts";
import { withDir } from "../support/profiles_dir.ts";

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

Deno.test("profilesPath joins with the platform's separator; a blank GOVCAT_CONFIG_DIR counts as unset", () => {
  const appData = "C:\\Users\\a\\AppData\\Roaming";
  assert.equal(profilesPath({ APPDATA: appData }, "windows"), `${appData}\\govcat\\profiles.json`);
  assert.equal(
    profilesPath({ APPDATA: appData, GOVCAT_CONFIG_DIR: "  " }, "windows"),
    `${appData}\\govcat\\profiles.json`,
  );
  assert.equal(profilesPath({ GOVCAT_CONFIG_DIR: "D:/govcat" }, "windows"), "D:/govcat/profiles.json");
  assert.equal(
    profilesPath({ HOME: "/h", GOVCAT_CONFIG_DIR: "" }, "linux"),
    "/h/.config/govcat/profiles.json",
  );
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

Deno.test("the file store ignores a missing file and round-trips", async () => {
  await withDir((dir) => {
    const store = new ProfileStore(`${dir}/new/profiles.json`);
    assert.deepEqual(store.read(), { profiles: [] });
    store.write({ profiles: [{ name: "x", default: true, settings: { "account-name": "xyz" } }] });
    assert.equal(store.read().profiles[0].settings["account-name"], "xyz");
  });
});
