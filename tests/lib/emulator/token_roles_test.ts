/** The emulator's role check: a reader's token reads, a curator's writes, no token gets 401; off by default. */
import assert from "node:assert/strict";
import { startEmulator } from "../../../lib/emulator/mod.ts";
import { CURATOR_ROLE, READER_ROLE } from "../../../lib/emulator/token_roles.ts";
import { base64url } from "../../support/entra_stand_in.ts";

/** An unsigned token with `roles`: the emulator reads claims without verifying (loopback test data). */
function tokenWith(roles: string[]): string {
  const claims = { oid: "00000000-0000-4000-8000-0000000000cc", name: "Test User", roles };
  return `${base64url('{"alg":"RS256"}')}.${base64url(JSON.stringify(claims))}.c2ln`;
}

const ENTITY = {
  entity: { typeName: "DataSet", attributes: { qualifiedName: "roles://one", name: "one" } },
};

async function write(url: string, token?: string): Promise<Response> {
  return await fetch(`${url}/datamap/api/atlas/v2/entity?api-version=2023-09-01`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(ENTITY),
  });
}

async function search(url: string, token: string): Promise<Response> {
  return await fetch(`${url}/datamap/api/search/query?api-version=2023-09-01`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ keywords: "customer" }),
  });
}

Deno.test("emulator roles: reader reads but may not write, curator writes, no token is 401", async () => {
  const emulator = await startEmulator({ seed: true, roles: true });
  try {
    const reader = tokenWith([READER_ROLE]);
    const readerSearch = await search(emulator.url, reader);
    assert.equal(readerSearch.status, 200);
    await readerSearch.body?.cancel();
    const refused = await write(emulator.url, reader);
    assert.equal(refused.status, 403);
    assert.match(JSON.stringify(await refused.json()), /Test User has the DataReader role only/);
    const anonymous = await write(emulator.url);
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
    const nobody = await search(emulator.url, tokenWith([]));
    assert.equal(nobody.status, 403);
    await nobody.body?.cancel();
    const written = await write(emulator.url, tokenWith([CURATOR_ROLE]));
    assert.equal(written.status, 200);
    await written.body?.cancel();
  } finally {
    await emulator.close();
  }
});

Deno.test("emulator roles: without the option no token is looked at", async () => {
  const emulator = await startEmulator({ seed: true });
  try {
    const written = await write(emulator.url);
    assert.equal(written.status, 200);
    await written.body?.cancel();
  } finally {
    await emulator.close();
  }
});
