/**
 * Path prefixes of the data map API. The contract serves Atlas v2 and search under `/datamap/api`; the
 * service also answers the older `/catalog/api` prefix the product spec names, and the emulator serves both.
 *
 * @module
 */

export const DATAMAP_PREFIX = "/datamap/api";
export const ATLAS_V2 = `${DATAMAP_PREFIX}/atlas/v2`;
/** The classic glossary's calls (glossaries, categories, terms) sit below this path. */
export const ATLAS_GLOSSARY = `${ATLAS_V2}/glossary`;

/** Encodes one path segment (a GUID, a type name) so no input can change the path's shape. */
export function segment(value: string): string {
  return encodeURIComponent(value);
}
