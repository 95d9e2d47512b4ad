/**
 * Collection roles deciding permissions, from the CLI: govcat as a subprocess against an emulator in team
 * mode. govcat sends no token to a loopback catalog, so the emulator is told which user a request without
 * one acts as (`callerWithoutToken`): the CLI runs as that user, another user calls with their own token.
 * A user refused a write in `sales` can write after an admin's `govcat policy add-member … --confirm`, in
 * `sales` and in a child collection that inherits, until the child cuts inheritance; an admin of `sales`
 * only cannot change the root's policy.
 */
import assert from "node:assert/strict";
import { withCliSetup } from "../support/cli_harness.ts";
import {
  grantRole,
  readPolicy,
  userToken,
  withoutInheritance,
  writePolicy,
} from "../support/collection_roles.ts";

const ADMIN = "00000000-0000-4000-8000-0000000000ad";
const USER = "00000000-0000-4000-8000-0000000000cc";
const SALES_ADMIN = "00000000-0000-4000-8000-0000000000dd";

async function writeEntity(url: string, collection: string, name: string): Promise<number> {
  const response = await fetch(`${url}/datamap/api/atlas/v2/entity?api-version=2023-09-01`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${userToken(USER, "Uma User")}` },
    body: JSON.stringify({
      entity: {
        typeName: "DataSet",
        attributes: { qualifiedName: `team://${name}`, name },
        collectionId: collection,
      },
    }),
  });
  await response.body?.cancel();
  return response.status;
}

Deno.test("cli team: a write refused by sales's policy works after policy add-member, also in an inheriting child", async () => {
  await withCliSetup({ seed: true, roles: { admins: [ADMIN], callerWithoutToken: ADMIN } }, async (setup) => {
    const url = setup.emulator.url;
    assert.equal(await writeEntity(url, "sales", "one"), 403);
    await setup.client.collections.createOrUpdate("team-a", { parentCollection: { referenceName: "sales" } });

    const granted = await setup.govcat(
      "policy",
      "add-member",
      "--collection-name",
      "sales",
      "--role",
      "data-curator",
      "--principal-id",
      USER,
      "--confirm",
    );
    assert.equal(granted.code, 0, granted.stderr);
    assert.equal(granted.json.changed, true);
    assert.equal(await writeEntity(url, "sales", "one"), 200);
    assert.equal(await writeEntity(url, "team-a", "two"), 200, "team-a inherits sales's grant");
    assert.equal(await writeEntity(url, "finance", "three"), 403, "finance does not");

    const admin = userToken(ADMIN);
    const cut = await writePolicy(url, admin, withoutInheritance(await readPolicy(url, admin, "team-a")));
    assert.equal(cut.status, 200, JSON.stringify(cut.body));
    assert.equal(await writeEntity(url, "team-a", "four"), 403, "inheritance cut");

    const shown = await setup.govcat("policy", "show", "--collection-name", "team-a");
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.json.inheritsFrom, undefined);
  });
});

Deno.test("cli team: an admin of sales only grants in sales and cannot change the root's policy", async () => {
  await withCliSetup(
    { seed: true, roles: { admins: [ADMIN], callerWithoutToken: SALES_ADMIN } },
    async (setup) => {
      const url = setup.emulator.url;
      const admin = userToken(ADMIN);
      for (const [collection, role] of [["sales", "collection-admin"], ["emulator", "data-reader"]]) {
        const grant = await grantRole(url, admin, { collection, role, principal: SALES_ADMIN });
        assert.equal(grant.status, 200, JSON.stringify(grant.body));
      }
      const member = (collection: string) => [
        "policy",
        "add-member",
        "--collection-name",
        collection,
        "--role",
        "data-curator",
        "--principal-id",
        USER,
        "--confirm",
      ];
      const inSales = await setup.govcat(...member("sales"));
      assert.equal(inSales.code, 0, inSales.stderr);

      const before = await readPolicy(url, admin, "emulator");
      const atRoot = await setup.govcat(...member("emulator"));
      assert.equal(atRoot.code, 1, atRoot.stderr);
      assert.match(atRoot.stderr, /403/);
      assert.match(
        atRoot.stderr,
        new RegExp(`${SALES_ADMIN} may not PUT .*collection-admin role on collection 'emulator'`),
      );
      assert.equal(
        (await readPolicy(url, admin, "emulator")).version,
        before.version,
        "the root's policy is unchanged",
      );
    },
  );
});
