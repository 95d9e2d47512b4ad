/**
 * Operations of the `config` group.
 *
 * @module
 */
import type { Operation } from "./types.ts";

export const CONFIG_OPERATIONS: Operation[] = [];
