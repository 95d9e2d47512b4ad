/**
 * Operations of the `lineage` group.
 *
 * @module
 */
import type { Operation } from "./types.ts";

export const LINEAGE_OPERATIONS: Operation[] = [];
