/**
 * The role assignments kind of the bulk fault suite (`policy import`): rows for 30 collections, several
 * per collection, which the import writes as one policy PUT per collection; rows naming an unknown role are
 * refused by the import itself. A row's writes are its collection policy's (each PUT raises the version by
 * one from the 1 a new collection's policy starts at), so a collection written twice shows in every one of
 * its rows.
 *
 * @module
 */
import { roleMembers } from "../../lib/catalog/policy_members.ts";
import { type FaultKind, range, split, writeCsv } from "./fault_suite_kinds.ts";

const COLLECTIONS = 30;

/** A deterministic object id per row. */
const principal = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;

export const roleAssignmentsKind: FaultKind = {
  name: "role assignments",
  write: { method: "PUT", path: "/metadataPolicies/" },
  batchSize: 2,
  concurrency: 4,
  faultedWrites: 18,
  async prepare({ catalog, dir }) {
    const rows = 150;
    const bad = (i: number) => i % 50 === 11;
    const collection = (i: number) => `pc-${i % COLLECTIONS}`;
    for (const i of range(COLLECTIONS)) {
      await catalog.collections.createOrUpdate(collection(i), {
        parentCollection: { referenceName: "emulator" },
      });
    }
    const keys = range(rows).map((i) => `${collection(i)}/${principal(i)}`);
    const role = (i: number) => bad(i) ? "owner" : i % 2 === 0 ? "data-curator" : "data-reader";
    const file = await writeCsv(`${dir}/roles.csv`, [
      "collection,role,principal_id",
      ...range(rows).map((i) => `${collection(i)},${role(i)},${principal(i)}`),
    ]);
    return {
      args: ["policy", "import", "--csv-file", file, "--confirm"],
      file,
      rows,
      ...split(keys, bad),
      writes: async () => {
        const found = new Map<string, number>();
        for (const policy of await catalog.policies.listPolicies()) {
          const name = String(policy.properties?.collection?.referenceName ?? "");
          for (const members of roleMembers(policy).values()) {
            for (const member of members) found.set(`${name}/${member}`, Number(policy.version) - 1);
          }
        }
        return found;
      },
    };
  },
};
