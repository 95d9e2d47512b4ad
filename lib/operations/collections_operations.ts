/**
 * Operations of the `collections` group.
 *
 * @module
 */
import type { Operation } from "./types.ts";

export const COLLECTIONS_OPERATIONS: Operation[] = [];
