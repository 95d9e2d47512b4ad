/**
 * The collections area of the emulator (routes added with the collections issue).
 *
 * @module
 */
import type { ApiArea } from "./area.ts";

/** Routes of the collections area, relative to the API prefix. */
export const collectionsArea: ApiArea = () => [];
