/**
 * Operations of the `scan` group.
 *
 * @module
 */
import type { Operation } from "./types.ts";

export const SCAN_OPERATIONS: Operation[] = [];
