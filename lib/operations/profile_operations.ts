/**
 * Operations of the `profile` group.
 *
 * @module
 */
import type { Operation } from "./types.ts";

export const PROFILE_OPERATIONS: Operation[] = [];
