/**
 * The `account` operations through the command line, in process, against an emulator on 127.0.0.1: the
 * friendly name is changed and read back; the access keys are listed, one is regenerated (refused without
 * --confirm, before anything is sent) and the other stays; the resource set rule configuration is put,
 * read, listed and deleted; and a key never appears in what is logged afterwards.
 */
import assert from "node:assert/strict";
import { accessKeySecrets } from "../../../lib/catalog/account_api.ts";
import { startEmulator } from "../../../lib/emulator/mod.ts";
import { createLogger } from "../../../lib/core/log.ts";
import { listAccountKeys } from "../../../lib/operations/account_operations.ts";
import { createOperationRegistry } from "../../../lib/operations/mod.ts";
import type { OperationContext } from "../../../lib/operations/types.ts";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { type CliSetup, withCli } from "./cli_in_process.ts";

/** Runs `test` with govcat in process against an empty emulator. */
function withAccount(
  test: (govcat: CliSetup["govcat"], emulator: CliSetup["emulator"]) => Promise<void>,
): Promise<void> {
  return withCli({}, ({ govcat, emulator }) => test(govcat, emulator));
}

Deno.test("account update changes the friendly name, and account get reads it back", async () => {
  await withAccount(async (govcat) => {
    const before = await govcat("account", "get");
    assert.equal(before.code, 0, before.stderr);
    assert.equal(before.json.properties.friendlyName, "govcat catalog emulator");
    const updated = await govcat("account", "update", "--friendly-name=Contoso catalog");
    assert.equal(updated.code, 0, updated.stderr);
    assert.equal(updated.json.properties.friendlyName, "Contoso catalog");
    assert.equal(updated.json.systemData.lastModifiedByType, "User");
    assert.equal((await govcat("account", "get")).json.properties.friendlyName, "Contoso catalog");
    const empty = await govcat("account", "update", "--friendly-name=  ");
    assert.equal(empty.code, 2, "a blank name is refused before anything is sent");
  });
});

Deno.test("account keys: listed, one regenerated only with --confirm, the other kept", async () => {
  await withAccount(async (govcat, emulator) => {
    const listed = await govcat("account", "list-keys");
    assert.equal(listed.code, 0, listed.stderr);
    const { atlasKafkaPrimaryEndpoint: primary, atlasKafkaSecondaryEndpoint: secondary } = listed.json;
    assert.match(
      primary,
      /^Endpoint=sb:\/\/[^;]+\/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=.{40,}$/,
    );
    assert.match(secondary, /SharedAccessKeyName=AlternateSharedAccessKey;SharedAccessKey=/);
    assert.notEqual(primary, secondary);
    assert.deepEqual((await govcat("account", "list-keys")).json, listed.json, "keys are stable");

    const sent = emulator.faults.stats().total;
    const refused = await govcat("account", "regenerate-key", "--key-type=primary");
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /--confirm/);
    assert.equal(emulator.faults.stats().total, sent, "nothing is sent without --confirm");

    const regenerated = await govcat("account", "regenerate-key", "--key-type=primary", "--confirm");
    assert.equal(regenerated.code, 0, regenerated.stderr);
    assert.notEqual(regenerated.json.atlasKafkaPrimaryEndpoint, primary);
    assert.equal(regenerated.json.atlasKafkaSecondaryEndpoint, secondary);
    assert.deepEqual((await govcat("account", "list-keys")).json, regenerated.json);

    const second = await govcat("account", "regenerate-key", "--key-type=secondary", "--confirm");
    assert.notEqual(second.json.atlasKafkaSecondaryEndpoint, secondary);
    assert.equal(second.json.atlasKafkaPrimaryEndpoint, regenerated.json.atlasKafkaPrimaryEndpoint);
  });
});

Deno.test("account keys never appear in what is logged after they are listed", async () => {
  const emulator = await startEmulator({ seed: false });
  try {
    const lines: string[] = [];
    const logger = createLogger("debug", { write: (line) => lines.push(line) });
    const config = loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: emulator.url });
    const catalog = CatalogClient.fromConfig(config, { logger });
    const ctx: OperationContext = {
      config: () => config,
      catalog: () => catalog,
      unified: () => {
        throw new Error("not used");
      },
      logger,
      readTextFile: () => Promise.reject(new Error("not used")),
    };
    const keys = await listAccountKeys.run(ctx, {});
    const secrets = accessKeySecrets(keys as Record<string, string>);
    assert.equal(secrets.length, 4, "two connection strings and the two keys in them");
    const key = secrets[1];
    logger.error(`a message that quotes the key ${key} and the whole string ${secrets[0]}`);
    const written = lines.join("\n");
    for (const secret of secrets) assert.ok(!written.includes(secret), `a key was written: ${written}`);
    assert.match(written, /quotes the key \*\*\*/);
  } finally {
    await emulator.close();
  }
});

Deno.test("account resource set rule: put from a file, read, listed, deleted (then 404 and none)", async () => {
  await withAccount(async (govcat) => {
    const none = await govcat("account", "get-resource-set-rule");
    assert.equal(none.code, 1, "no configuration yet");
    assert.equal((await govcat("account", "list-resource-set-rules")).json.count, 0);

    const file = await Deno.makeTempFile({ suffix: ".json" });
    try {
      await Deno.writeTextFile(
        file,
        JSON.stringify({
          pathPatternConfig: {
            enableDefaultPatterns: true,
            createdBy: "govcat",
            rejectedPatterns: [{ name: "Office", filterType: "Regex", path: "^.*\\.docx$" }],
          },
          advancedResourceSet: { resourceSetProcessing: "Advanced" },
        }),
      );
      const put = await govcat("account", "put-resource-set-rule", `--payload-file=${file}`);
      assert.equal(put.code, 0, put.stderr);
      assert.equal(put.json.name, "defaultResourceSetRuleConfig");
      assert.equal(put.json.advancedResourceSet.resourceSetProcessing, "Advanced");
      assert.ok(put.json.advancedResourceSet.modifiedAt);

      const got = await govcat("account", "get-resource-set-rule");
      assert.deepEqual(got.json, put.json);
      const listed = await govcat("account", "list-resource-set-rules");
      assert.deepEqual(listed.json, { count: 1, value: [put.json] });

      await Deno.writeTextFile(file, JSON.stringify({ pathPatternConfig: { enableDefaultPatterns: true } }));
      const invalid = await govcat("account", "put-resource-set-rule", `--payload-file=${file}`);
      assert.equal(invalid.code, 1, "the service refuses a configuration without createdBy");
      assert.match(invalid.stderr, /createdBy/);
    } finally {
      await Deno.remove(file);
    }

    assert.equal((await govcat("account", "delete-resource-set-rule")).code, 2, "deleting needs --confirm");
    const deleted = await govcat("account", "delete-resource-set-rule", "--confirm");
    assert.deepEqual(deleted.json, { deleted: true });
    assert.deepEqual((await govcat("account", "delete-resource-set-rule", "--confirm")).json, {
      deleted: false,
    });
    assert.equal((await govcat("account", "get-resource-set-rule")).code, 1);
  });
});

Deno.test("account operations: registered with truthful annotations", () => {
  const registry = createOperationRegistry();
  const annotations = (id: string) => registry.get(id)?.annotations;
  assert.equal(annotations("account.get")?.readOnly, true);
  assert.equal(annotations("account.list-keys")?.readOnly, true);
  assert.equal(annotations("account.list-resource-set-rules")?.readOnly, true);
  assert.equal(annotations("account.get-resource-set-rule")?.readOnly, true);
  assert.deepEqual(
    { ...annotations("account.update") },
    { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  );
  assert.deepEqual(
    { ...annotations("account.put-resource-set-rule") },
    { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  );
  assert.equal(annotations("account.regenerate-key")?.destructive, true);
  assert.equal(annotations("account.regenerate-key")?.idempotent, false);
  assert.equal(annotations("account.delete-resource-set-rule")?.destructive, true);
});
