/**
 * "a" or "an" in generated text: the helper, and every operation summary and description in the registry
 * (the `uc` kinds' are generated from labels: "Create an objective"), every MCP tool description and every
 * hint, checked by the sound of the word that follows rather than by the helper itself.
 */
import assert from "node:assert/strict";
import { startsWithVowelSound, withArticle } from "../../../lib/core/articles.ts";
import { HINT_RULES } from "../../../lib/core/error_hints.ts";
import { ALL_TOOLS } from "../../../lib/mcp/tools/mod.ts";
import { createOperationRegistry } from "../../../lib/operations/mod.ts";

/** Words starting with a vowel letter but a consonant sound, and the reverse, as English has them. */
const CONSONANT_SOUND = new Set([
  "unique",
  "unified",
  "union",
  "unit",
  "user",
  "usage",
  "use",
  "useful",
  "one",
]);
const VOWEL_SOUND = new Set(["hour", "honest", "honour"]);

/** The article `word` takes, or undefined for an acronym (read letter by letter or as a word: either). */
function expectedArticle(word: string): "a" | "an" | undefined {
  if (/^[A-Z]{2,}/.test(word)) return undefined;
  // A compound takes the article of its first part: "a one-line summary", "a user-assigned name".
  const lower = word.toLowerCase().split("-")[0];
  if (VOWEL_SOUND.has(lower)) return "an";
  if (CONSONANT_SOUND.has(lower)) return "a";
  return /^[aeiou]/.test(lower) ? "an" : "a";
}

/** Every "a word" / "an word" in `text` whose article does not fit the word. */
function wrongArticles(text: string): string[] {
  const wrong: string[] = [];
  for (const [phrase, article, word] of text.matchAll(/\b(an?) [`"'<(]?([A-Za-z][\w-]*)/gi)) {
    const expected = expectedArticle(word);
    if (expected && article.toLowerCase() !== expected) wrong.push(phrase);
  }
  return wrong;
}

Deno.test("withArticle: an before a vowel sound, a before a consonant sound", () => {
  assert.equal(withArticle("objective"), "an objective");
  assert.equal(withArticle("governance domain"), "a governance domain");
  assert.equal(withArticle("data product"), "a data product");
  assert.equal(withArticle("critical data element"), "a critical data element");
  assert.equal(withArticle("entity"), "an entity");
  assert.equal(withArticle("unknown type"), "an unknown type");
  assert.equal(withArticle("unique name"), "a unique name");
  assert.equal(withArticle("user"), "a user");
  assert.equal(withArticle("one-off"), "a one-off");
  assert.equal(startsWithVowelSound("  input"), true);
});

Deno.test("every operation summary and description, tool description and hint uses a and an correctly", () => {
  const texts: Array<[string, string]> = [];
  for (const op of createOperationRegistry().all()) {
    texts.push([`${op.id} summary`, op.summary]);
    if (op.description) texts.push([`${op.id} description`, op.description]);
  }
  for (const tool of ALL_TOOLS) texts.push([`tool ${tool.name}`, tool.description]);
  for (const rule of HINT_RULES) texts.push([`hint ${rule.cause}`, rule.hint]);
  const wrong = texts.flatMap(([where, text]) =>
    wrongArticles(text).map((phrase) => `${where}: "${phrase}"`)
  );
  assert.deepEqual(wrong, []);
  // The generated summaries of the uc kinds, spelled out.
  const registry = createOperationRegistry();
  assert.equal(registry.get("uc.objective-create")?.summary, "Create an objective");
  assert.equal(registry.get("uc.objective-get")?.summary, "Read an objective by id");
  assert.equal(registry.get("uc.dataproduct-update")?.summary, "Update a data product");
});

Deno.test("the article check itself catches a wrong article", () => {
  assert.deepEqual(wrongArticles("Create a objective; Read an data product; a unique name; an `arguments`"), [
    "a objective",
    "an data",
  ]);
});
