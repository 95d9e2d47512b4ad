/**
 * Operations of the `uc` group (unified catalog).
 *
 * @module
 */
import type { Operation } from "./types.ts";

export const UC_OPERATIONS: Operation[] = [];
