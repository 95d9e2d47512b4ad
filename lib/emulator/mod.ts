/**
 * The catalog emulator: a local, persistent implementation of the Purview data-map REST contract (Atlas v2
 * entities and discovery search) on 127.0.0.1, with fault injection for resilience tests.
 *
 * @example
 * ```ts
 * import { startEmulator } from "./mod.ts";
 * const emulator = await startEmulator({ seed: true, faults: { latencyMs: 5 } });
 * emulator.faults.script([{ status: 429, retryAfterSeconds: 1, method: "POST" }]);
 * // ... point a client at `${emulator.url}` ...
 * console.log(emulator.faults.stats().total);
 * await emulator.close();
 * ```
 *
 * @module
 */
export {
  API_PREFIXES,
  type EmulatorOptions,
  type RolesOptions,
  ROUTE_FAMILIES,
  type RunningEmulator,
  startEmulator,
} from "./server.ts";
export {
  type EmulatorStats,
  type FaultController,
  FaultInjector,
  MAX_LOG_ENTRIES,
  mulberry32,
  type RequestLogEntry,
} from "./faults.ts";
export {
  DEFAULT_FAULT_SETTINGS,
  type FaultSettings,
  FaultSettingsError,
  type FaultStep,
  validateFaultScript,
  validateFaultSettings,
} from "./fault_settings.ts";
export { ADMIN_PREFIX } from "./admin.ts";
export { EMULATOR_USER_OBJECT_ID } from "./policy/defaults.ts";
export { clearCatalogData, type DataResetReport } from "./data_reset.ts";
export { DEFAULT_SEED } from "./seed.ts";
export { DEFAULT_COLLECTION_ID } from "./entity/mutation.ts";
export type {
  AtlasEntity,
  AtlasEntityHeader,
  BusinessAttributes,
  BusinessAttributeUpdateBehavior,
  EntityMutationResult,
  MutationOperation,
} from "./entity/model.ts";
export { BUSINESS_METADATA_TEMPLATE, type ImportInfo } from "./entity/business_metadata_import.ts";
export { MAX_LABEL_LENGTH } from "./entity/labels.ts";
export { MAX_SEARCH_LIMIT, type SearchRequest, type SearchResult } from "./search/engine.ts";
export { accountArea, EMULATOR_ACCOUNT_NAME } from "./account/area.ts";
export {
  createTypeSystem,
  EmulatorTypeSystem,
  type TypeDefFilter,
  type TypeDefRegistry,
  typeDefRegistryOf,
  type TypeUsage,
} from "./types/system.ts";
export type {
  AtlasAttributeDef,
  AtlasTypeDef,
  AtlasTypeDefHeader,
  AtlasTypesDef,
  TypeDefCategory,
} from "./types/model.ts";
export { BUILTIN_TYPEDEFS } from "./types/builtin_types.ts";
export { typedefArea } from "./types/area.ts";
export { relationshipArea } from "./relationship/area.ts";
export { type AtlasRelationship, type RelationshipEnd, RelationshipStore } from "./relationship/store.ts";
