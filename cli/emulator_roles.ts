/**
 * The team-mode option of `govcat emulator --roles[=OID,…]` and `govcat serve --emulator-roles[=OID,…]`:
 * collection roles enforced for every caller, with the named object ids as the account's first
 * administrators (every role on the root collection).
 *
 * @example
 * ```ts
 * import { parseRolesOption } from "./emulator_roles.ts";
 * console.log(parseRolesOption("00000000-0000-4000-8000-0000000000ad", "--roles")); // { admins: [...] }
 * ```
 *
 * @module
 */

import { isGuid } from "../lib/core/guid.ts";

/** Team mode's start, as `startEmulator`'s `roles` option takes it (not imported: the CLI loads the emulator late). */
export interface TeamMode {
  /** Object ids given every role on the root collection. */
  admins: string[];
}

/** Reads the option's value (empty: team mode without extra administrators); throws naming a bad id. */
export function parseRolesOption(raw: string, option: string): TeamMode {
  const admins = raw.split(",").map((id) => id.trim()).filter((id) => id !== "");
  for (const id of admins) {
    if (!isGuid(id)) {
      throw new Error(
        `${option} names "${id}", which is not an object id; give the Entra object ids (GUIDs) of the ` +
          `administrators, comma-separated, e.g. ${option}=00000000-0000-4000-8000-0000000000ad`,
      );
    }
  }
  return { admins };
}
