/**
 * Writes command results to stdout: JSON by default (stable and pipeable), or a plain table.
 *
 * @module
 */

/**
 * Renders `value` in the chosen format. A string result is text meant to be printed as it is (a CSV
 * template), in either format.
 */
export function formatOutput(value: unknown, format: "json" | "table"): string {
  if (typeof value === "string") return value;
  if (format === "json") return JSON.stringify(value ?? null, null, 2);
  return formatTable(rowsOf(value));
}

/**
 * Fields that hold the records of a list result: a page (`value`, `entities`, `items`), the connection
 * profiles and the settings of `config list`. Named, not guessed: a record that merely holds a list (a term
 * with its assigned entities) is shown as itself.
 */
const LIST_FIELDS = ["value", "entities", "items", "profiles", "settings"];

/** The rows a table shows: a list as is, the list a result holds, or one object as field/value rows. */
function rowsOf(value: unknown): Record<string, unknown>[] {
  if (Array.isArray(value)) return value.map(asRow);
  if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    for (const key of LIST_FIELDS) {
      if (Array.isArray(record[key])) return (record[key] as unknown[]).map(asRow);
    }
    if (record.entity && typeof record.entity === "object") return [flattenEntity(record.entity)];
    return Object.entries(record).map(([key, v]) => ({ field: key, value: v }));
  }
  return [{ value }];
}

function asRow(item: unknown): Record<string, unknown> {
  return item && typeof item === "object" && !Array.isArray(item) ? flattenEntity(item) : { value: item };
}

/** Lifts the common Atlas attributes to columns so an entity reads well in a table. */
function flattenEntity(item: object): Record<string, unknown> {
  const record = item as Record<string, unknown>;
  const attributes = record.attributes as Record<string, unknown> | undefined;
  if (!attributes) return record;
  const { attributes: _, ...rest } = record;
  return { ...rest, name: attributes.name, qualifiedName: attributes.qualifiedName };
}

function formatTable(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return "(no rows)";
  const columns: string[] = [];
  for (const row of rows) {
    for (const [key, v] of Object.entries(row)) {
      if (!columns.includes(key) && (v === null || typeof v !== "object")) columns.push(key);
    }
  }
  const cells = rows.map((row) => columns.map((c) => cell(row[c])));
  const widths = columns.map((c, i) => Math.min(60, Math.max(c.length, ...cells.map((r) => r[i].length))));
  const line = (values: string[]) =>
    values.map((v, i) => v.slice(0, widths[i]).padEnd(widths[i])).join("  ").trimEnd();
  return [line(columns), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}

function cell(value: unknown): string {
  if (value === undefined || value === null) return "";
  // A list or record in a field/value row is shown as compact JSON, not "[object Object]".
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  return text.replace(/\s+/g, " ");
}
