/**
 * The built-in type catalogue: every definition a fresh emulator knows, complete with deterministic guids and
 * a fixed creation time, so two emulators (and two runs) report identical built-in definitions. Built-ins live
 * in code, not in the database; a caller's update of one is stored and shadows it.
 *
 * @example
 * ```ts
 * import { BUILTIN_TYPEDEFS } from "./builtin_types.ts";
 * console.log(BUILTIN_TYPEDEFS.find((d) => d.name === "DataSet")?.superTypes); // ["Asset"]
 * ```
 *
 * @module
 */
import { AZURE_TYPES } from "./builtin_azure.ts";
import { CLASSIFICATION_TYPES } from "./builtin_classifications.ts";
import { CORE_TYPES } from "./builtin_core.ts";
import { type AtlasTypeDef, builtinGuid, normalizeTypeDef } from "./model.ts";

/** When the built-in definitions say they were created: 2024-01-01T00:00:00Z. */
export const BUILTIN_CREATE_TIME = 1704067200000;

/** Who the built-in definitions say created them. */
export const BUILTIN_USER = "admin";

/** Every built-in definition, in catalogue order. */
export const BUILTIN_TYPEDEFS: readonly AtlasTypeDef[] = [
  ...CORE_TYPES,
  ...AZURE_TYPES,
  ...CLASSIFICATION_TYPES,
].map((
  { category, def },
) =>
  normalizeTypeDef(def, category, {
    guid: builtinGuid(String(def.name)),
    now: BUILTIN_CREATE_TIME,
    user: BUILTIN_USER,
  })
);

/** Names of the built-in definitions. */
export const BUILTIN_NAMES: ReadonlySet<string> = new Set(BUILTIN_TYPEDEFS.map((def) => def.name));
