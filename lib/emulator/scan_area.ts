/**
 * The scanning API of the emulator (`/scan/datasources/...`); routes arrive with the scan issue.
 *
 * @module
 */
import type { ApiArea } from "./area.ts";

/** Routes of the scanning API, relative to the server root (no data-map prefix). */
export const scanArea: ApiArea = () => [];
