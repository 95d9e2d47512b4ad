/**
 * The glossary area of the emulator (routes added with the glossary issue).
 *
 * @module
 */
import type { ApiArea } from "./area.ts";

/** Routes of the glossary area, relative to the API prefix. */
export const glossaryArea: ApiArea = () => [];
