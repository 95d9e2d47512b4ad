/**
 * The `domain` commands, which map to collections because the public API has no domain CRUD:
 * create, list, get, update and delete work on collections and say so on stderr; search, check-attributes
 * and create-using-collections. Run against the seeded emulator over real HTTP: as a subprocess once the
 * domain operations are registered in the default registry, in process through the same CLI front end
 * until then.
 */
import assert from "node:assert/strict";
import { runCli } from "../../cli/run.ts";
import { DOMAIN_OPERATIONS } from "../../lib/operations/domain_operations.ts";
import { createOperationRegistry } from "../../lib/operations/mod.ts";
import { type CliRun, type CliSetup, toCliRun, withCliSetup } from "../support/cli_harness.ts";

/** Runs a domain command: as a subprocess once registered, in process through the CLI until then. */
async function domainCommand(setup: CliSetup, ...args: string[]): Promise<CliRun> {
  const registry = createOperationRegistry();
  if (registry.get("domain.create")) return await setup.govcat("domain", ...args);
  registry.register(...DOMAIN_OPERATIONS);
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    ["domain", ...args],
    { env: setup.env, stdout: (t) => out.push(t), stderr: (t) => err.push(t) },
    registry,
  );
  return toCliRun(["domain", ...args], { code, stdout: out.join("\n"), stderr: err.join("\n") });
}

Deno.test("domain commands map to collections and say so", async () => {
  await withCliSetup({ seed: true }, async (setup) => {
    const created = await domainCommand(setup, "create", "--name=Sales Analytics", "--description=KPIs");
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stderr, /domains map to collections/);
    assert.equal(created.json.collectionName, "sales-analytics");
    assert.equal(created.json.created, true);
    assert.equal(created.json.collection.friendlyName, "Sales Analytics");
    assert.equal(created.json.collection.parentCollection.referenceName, "emulator");

    const byFriendly = await domainCommand(setup, "get", "--domain-name=sales analytics");
    assert.equal(byFriendly.json.name, "sales-analytics");
    const byName = await domainCommand(setup, "get", "--domain-name=finance");
    assert.equal(byName.json.friendlyName, "Finance");
    const unknown = await domainCommand(setup, "get", "--domain-name=Nowhere Domain");
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no such domain/);

    const updated = await domainCommand(
      setup,
      "update",
      "--domain-name=Sales Analytics",
      "--friendly-name=Sales BI",
    );
    assert.equal(updated.json.friendlyName, "Sales BI");
    assert.equal(updated.json.description, "KPIs");
    const nothing = await domainCommand(setup, "update", "--domain-name=Sales BI");
    assert.equal(nothing.code, 2);

    const list = await domainCommand(setup, "list");
    assert.ok(list.json.value.some((c: { name: string }) => c.name === "sales-analytics"));
    assert.match(list.stderr, /domains map to collections/);
    assert.match(list.stderr, /govcat account list-domains/, "points at the account API's own domains");

    const search = await domainCommand(
      setup,
      "search",
      "--keywords=customers",
      "--entity-types=azure_sql_table,DataSet",
    );
    assert.equal(search.code, 0, search.stderr);
    const types = new Set(search.json.value.map((v: { entityType: string }) => v.entityType));
    assert.ok(
      types.size > 0 && [...types].every((t) => t === "azure_sql_table" || t === "DataSet"),
      [...types].join(),
    );
    const limited = await domainCommand(setup, "search", "--limit=1");
    assert.equal(limited.json.value.length, 1);

    const attributes = await domainCommand(setup, "check-attributes");
    assert.equal(attributes.json.domainCrudAvailable, false);
    assert.equal(attributes.json.mappedTo, "collections");
    const fields = attributes.json.attributes.map((a: { field: string }) => a.field);
    assert.deepEqual(fields, [
      "name",
      "friendlyName",
      "description",
      "parentCollection",
      "collectionProvisioningState",
      "systemData",
    ]);

    const examples = await domainCommand(setup, "create-using-collections", "--show-examples");
    assert.ok(examples.json.examples.length > 0);
    assert.equal(examples.json.collectionName, undefined, "no domain name, nothing created");
    const viaCollections = await domainCommand(setup, "create-using-collections", "--domain-name=Risk");
    assert.equal(viaCollections.json.collectionName, "risk", "the service answers names in lower case");
    assert.equal(viaCollections.json.collection.name, "risk");

    const deleted = await domainCommand(setup, "delete", "--confirm", "--domain-name=Sales BI");
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(deleted.json.collectionName, "sales-analytics");
    const refused = await domainCommand(setup, "delete", "--confirm", "--domain-name=sales");
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /409 CollectionHasAssets/);
  });
});
