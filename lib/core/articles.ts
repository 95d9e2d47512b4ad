/**
 * The indefinite article of a noun in generated text ("Create an objective", "Read a data product"),
 * chosen by how the noun sounds: "an" before a vowel sound, "a" before a consonant sound, so "a unique
 * name" and "a user" but "an unknown type".
 *
 * @example
 * ```ts
 * import { withArticle } from "./articles.ts";
 * withArticle("objective"); // "an objective"
 * withArticle("governance domain"); // "a governance domain"
 * ```
 *
 * @module
 */

/**
 * Words that start with a vowel letter and a consonant sound (`uni-`, `use-`, `usu-`, `uti-`, `one`), for
 * which the letter alone would choose wrongly.
 */
const CONSONANT_SOUND = /^(?:un[ie]|us[aeu]|uti|eu|one\b|once\b)/i;

/** Whether the noun begins with a vowel sound. */
export function startsWithVowelSound(noun: string): boolean {
  const word = noun.trim();
  return /^[aeiou]/i.test(word) && !CONSONANT_SOUND.test(word);
}

/** The noun with "a" or "an" before it. */
export function withArticle(noun: string): string {
  return `${startsWithVowelSound(noun) ? "an" : "a"} ${noun}`;
}
