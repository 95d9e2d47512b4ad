/**
 * The `profile` commands of `cli/profile_service.ts`: adding, removing and choosing the default keep at
 * most one default, and names are unique.
 */
import assert from "node:assert/strict";
import { createProfileService } from "../../cli/profile_service.ts";
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
