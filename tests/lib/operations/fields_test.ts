/**
 * The field helpers every front end shares: the spellings of an option, and enum values matched without
 * regard to letter case, at any depth of an input.
 */
import assert from "node:assert/strict";
import { z } from "../../../lib/deps/zod.ts";
import {
  canonicalEnums,
  canonicalEnumValue,
  inputFields,
  optionSpellings,
} from "../../../lib/operations/fields.ts";

Deno.test("optionSpellings: kebab first, then camel and snake, each once", () => {
  assert.deepEqual(optionSpellings({ name: "glossaryGuid", flag: "glossary-guid" }), [
    "glossary-guid",
    "glossaryGuid",
    "glossary_guid",
  ]);
  assert.deepEqual(optionSpellings({ name: "limit", flag: "limit" }), ["limit"]);
});

Deno.test("canonicalEnumValue: the exact spelling first, else the first equal but for case", () => {
  assert.equal(canonicalEnumValue("both", ["upstream", "both", "BOTH"]), "both");
  assert.equal(canonicalEnumValue("Both", ["upstream", "both", "BOTH"]), "both");
  assert.equal(canonicalEnumValue("BOTH", ["upstream", "both", "BOTH"]), "BOTH");
  assert.equal(canonicalEnumValue("sideways", ["INPUT", "OUTPUT"]), undefined);
});

Deno.test("canonicalEnums: enum values at any depth take the schema's spelling; other text is kept", () => {
  const schema = z.object({
    direction: z.enum(["INPUT", "OUTPUT", "BOTH"]).default("BOTH"),
    facets: z.array(z.enum(["entityType", "assetType"])).optional(),
    nested: z.object({ sort: z.enum(["ASC", "DESC"]).optional(), name: z.string() }).optional(),
    byKey: z.record(z.string(), z.enum(["Draft", "Approved"])).optional(),
    maybe: z.enum(["Full", "Incremental"]).nullable().optional(),
    free: z.union([z.enum(["auto"]), z.string()]).optional(),
    text: z.string().optional(),
  });
  const input = {
    direction: "input",
    facets: ["ASSETTYPE", "entitytype"],
    nested: { sort: "desc", name: "asc" },
    byKey: { a: "approved", b: "DRAFT" },
    maybe: "full",
    free: "AUTO",
    text: "both",
    unknown: "input",
  };
  assert.deepEqual(canonicalEnums(schema, input), {
    direction: "INPUT",
    facets: ["assetType", "entityType"],
    nested: { sort: "DESC", name: "asc" },
    byKey: { a: "Approved", b: "Draft" },
    maybe: "Full",
    free: "AUTO",
    text: "both",
    unknown: "input",
  });
  assert.deepEqual(input.facets, ["ASSETTYPE", "entitytype"], "the input itself is not changed");
  assert.deepEqual(canonicalEnums(schema, { direction: "sideways" }), { direction: "sideways" });
  assert.equal(schema.parse(canonicalEnums(schema, { direction: "Output" })).direction, "OUTPUT");
});

Deno.test("inputFields: a list of enum values lists them", () => {
  const [facet] = inputFields(z.object({ facet: z.array(z.enum(["entityType", "assetType"])).optional() }));
  assert.equal(facet.kind, "string-list");
  assert.deepEqual(facet.enum, ["entityType", "assetType"]);
});
