/**
 * Every CSV template govcat ships, looked up by name or detected from a file's header. Each
 * area keeps its templates in its own module (entities, glossary, lineage, unified catalog terms,
 * collections, business metadata); this one puts them in one list.
 *
 * A template's sample file is its columns, in order, as the header, then its `sample` rows
 * ({@link sampleCsvLines}).
 *
 * @example
 * ```ts
 * import { csvTemplate, detectCsvTemplate } from "./mod.ts";
 * console.log(csvTemplate("lineage-basic")?.usage);
 * console.log(detectCsvTemplate(["term_guid", "entity_guid"])?.name); // "glossary-assignments"
 * ```
 *
 * @module
 */
import { REJECT_COLUMNS } from "../../csv/header_binding.ts";
import { columnKey } from "../../csv/problems.ts";
import { csvLine } from "../../csv/reader.ts";
import type { CsvTemplate } from "../../csv/types.ts";
import { BUSINESS_METADATA_TEMPLATES } from "./business_metadata_templates.ts";
import { COLLECTIONS_TEMPLATES } from "./collections_templates.ts";
import { ENTITY_TEMPLATES } from "./entity_templates.ts";
import { GLOSSARY_TEMPLATES } from "./glossary_templates.ts";
import { LINEAGE_TEMPLATES } from "./lineage_templates.ts";
import { POLICY_TEMPLATES } from "./policy_templates.ts";
import { UNIFIED_TERM_TEMPLATES } from "./unified_term_templates.ts";

const REJECT_KEYS = new Set<string>(REJECT_COLUMNS.map(columnKey));

/** Every CSV template, in the order `templates list` shows them. */
export const CSV_TEMPLATES: readonly CsvTemplate[] = [
  ...ENTITY_TEMPLATES,
  ...GLOSSARY_TEMPLATES,
  ...LINEAGE_TEMPLATES,
  ...UNIFIED_TERM_TEMPLATES,
  ...COLLECTIONS_TEMPLATES,
  ...BUSINESS_METADATA_TEMPLATES,
  ...POLICY_TEMPLATES,
];

/** Names of every CSV template. */
export const CSV_TEMPLATE_NAMES: readonly string[] = CSV_TEMPLATES.map((t) => t.name);

/** The template with this name (any letter case), or undefined. */
export function csvTemplate(name: string): CsvTemplate | undefined {
  const wanted = name.trim().toLowerCase();
  return CSV_TEMPLATES.find((t) => t.name === wanted);
}

/** The header of a template's sample file: its column names, in order. */
export function sampleHeader(template: CsvTemplate): string[] {
  return template.columns.map((column) => column.name);
}

/** A template's sample file as CSV lines (no line ends): the header, then the sample rows. */
export function sampleCsvLines(template: CsvTemplate): string[] {
  return [csvLine(sampleHeader(template)), ...template.sample.map((row) => csvLine([...row]))];
}

/** How well a header fits one template. */
export interface TemplateFit {
  template: CsvTemplate;
  /** Columns the template requires that the header lacks (a group of `oneOf` counts as `a or b`). */
  missingRequired: string[];
  /** Header cells that are neither a column nor a pattern of the template. */
  unknown: string[];
  /** Template columns the header has. */
  matched: number;
}

/**
 * How well a fit matches, best first: 0 a template the header can be read with and holds nothing foreign
 * to; 1 a template that knows every column of the header but misses a required one (the header is that
 * template's with a column left out); 2 a template the header can be read with despite columns it does
 * not know; 3 the rest.
 */
function tier(fit: TemplateFit): number {
  const readable = fit.missingRequired.length === 0;
  const known = fit.unknown.length === 0;
  return readable ? (known ? 0 : 2) : (known && fit.matched > 0 ? 1 : 3);
}

/**
 * How `header` fits each of `candidates`, best first (see {@link tier}): a header that is one template's
 * with a required column left out is that template's, so the column it misses is named rather than
 * another template's complaints about the columns it has.
 */
export function rankCsvTemplates(
  headerCells: readonly string[],
  candidates: readonly CsvTemplate[] = CSV_TEMPLATES,
): TemplateFit[] {
  const keys = headerCells.map((cell) => columnKey(cell)).filter((key) => key !== "");
  const fits = candidates.map((template): TemplateFit => {
    const names = (column: CsvTemplate["columns"][number]) =>
      [column.name, ...(column.aliases ?? [])].map((name) => columnKey(name));
    const has = (column: string) => {
      const spec = template.columns.find((c) => c.name === column);
      return (spec ? names(spec) : [columnKey(column)]).some((key) => keys.includes(key));
    };
    const missingRequired = template.columns
      .filter((column) => (column.required || column.requiredColumn) && !has(column.name))
      .map((column) => column.name);
    for (const group of template.oneOf ?? []) {
      if (!group.some(has)) missingRequired.push(group.join(" or "));
    }
    const known = new Set(template.columns.flatMap(names));
    // As the checker binds a header: patterns by prefix, reject-file columns ignored.
    const prefixes = (template.patterns ?? []).map((pattern) => pattern.prefix.toLowerCase());
    const unknown = headerCells.filter((cell) => {
      const key = columnKey(cell);
      const lower = cell.trim().toLowerCase();
      return key !== "" && !known.has(key) && !REJECT_KEYS.has(key) &&
        !prefixes.some((prefix) => lower.startsWith(prefix) && lower.length > prefix.length);
    });
    const matched = template.columns.filter((column) => has(column.name)).length;
    return { template, missingRequired, unknown, matched };
  });
  const order = new Map(candidates.map((t, i) => [t, i]));
  const uncovered = (fit: TemplateFit) => fit.template.columns.length - fit.matched;
  return fits.sort((a, b) => {
    const byTier = tier(a) - tier(b);
    if (byTier !== 0) return byTier;
    const byFit = a.missingRequired.length === 0
      // Fewest unknown columns; then the template the header covers most tightly (fewest columns left
      // out), so `lineage-basic` beats `lineage-table` for a basic file.
      ? a.unknown.length - b.unknown.length || uncovered(a) - uncovered(b)
      // Not readable: the closest is the one missing the fewest required columns, then sharing the most.
      : a.missingRequired.length - b.missingRequired.length || b.matched - a.matched ||
        a.unknown.length - b.unknown.length || uncovered(a) - uncovered(b);
    return byFit || order.get(a.template)! - order.get(b.template)!;
  });
}

/**
 * The template a header is written for: every required column present, fewest unknown columns, then the
 * closest fit. Undefined when no candidate has all its required columns.
 */
export function detectCsvTemplate(
  headerCells: readonly string[],
  candidates: readonly CsvTemplate[] = CSV_TEMPLATES,
): CsvTemplate | undefined {
  const [best] = rankCsvTemplates(headerCells, candidates);
  return best && best.missingRequired.length === 0 ? best.template : undefined;
}
