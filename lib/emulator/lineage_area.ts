/**
 * The lineage area of the emulator (routes added with the lineage issue).
 *
 * @module
 */
import type { ApiArea } from "./area.ts";

/** Routes of the lineage area, relative to the API prefix. */
export const lineageArea: ApiArea = () => [];
