/**
 * The unified catalog API of the emulator (`/datagovernance/catalog/...`); routes arrive with the
 * unified catalog issue.
 *
 * @module
 */
import type { ApiArea } from "../area.ts";

/** Routes of the unified catalog, relative to `/datagovernance/catalog`. */
export const unifiedCatalogArea: ApiArea = () => [];
