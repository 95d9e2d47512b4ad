/**
 * Operations of the `glossary` group.
 *
 * @module
 */
import type { Operation } from "./types.ts";

export const GLOSSARY_OPERATIONS: Operation[] = [];
