/**
 * The shipped CSV templates: every sample passes its own template, every template refuses a crafted bad
 * row at the right line and column, headers are matched to the right template, and the templates are
 * documented (summary, usage, a description and a valid example for every column).
 */
import assert from "node:assert/strict";
import { checkCsvText } from "../../../../lib/csv/check.ts";
import { CellError, convertCell } from "../../../../lib/csv/kinds.ts";
import { formatProblem } from "../../../../lib/csv/problems.ts";
import {
  CSV_TEMPLATES,
  csvTemplate,
  detectCsvTemplate,
  rankCsvTemplates,
  sampleCsvLines,
  sampleHeader,
} from "../../../../lib/templates/csv/mod.ts";
import { objectIdProblems } from "../../../../lib/templates/csv/rules.ts";
import type { CsvTemplate } from "../../../../lib/csv/types.ts";
import { JSON_TEMPLATE_NAMES } from "../../../../lib/templates/json_templates.ts";

const EXPECTED_NAMES = [
  "entity-bulk-import",
  "entity-bulk-update",
  "entity-dataset",
  "entity-classified",
  "entity-table",
  "glossary-terms",
  "glossary-assignments",
  "lineage-table",
  "lineage-column",
  "lineage-basic",
  "lineage-column-sample",
  "uc-term-bulk",
  "uc-term-all-fields",
  "uc-term-bulk-update",
  "uc-term-multi-value",
  "collections",
  "collections-export",
  "business-metadata",
  "role-assignments",
];

function template(name: string): CsvTemplate {
  const found = csvTemplate(name);
  assert.ok(found, `template ${name} exists`);
  return found;
}

/** The second sample row on line 2, then the first one changed by `change` on line 3. */
function withBadRow(t: CsvTemplate, change: Record<string, string>): string {
  const header = sampleHeader(t);
  const row = [...t.sample[0]];
  for (const [column, value] of Object.entries(change)) {
    const index = header.indexOf(column);
    assert.ok(index >= 0, `${t.name} has a column ${column}`);
    row[index] = value;
  }
  const lines = sampleCsvLines(t);
  return [lines[0], lines[2], sampleCsvLines({ ...t, sample: [row] })[1]].join("\n") + "\n";
}

Deno.test("the product's CSV templates are all there, with unique kebab-case names shared with no JSON template", () => {
  const names = CSV_TEMPLATES.map((t) => t.name);
  assert.deepEqual(names, EXPECTED_NAMES);
  for (const name of names) assert.match(name, /^[a-z]+(-[a-z]+)*$/);
  assert.deepEqual(names.filter((name) => JSON_TEMPLATE_NAMES.includes(name)), []);
  assert.equal(csvTemplate("Lineage-Basic")?.name, "lineage-basic", "names match in any case");
  assert.equal(csvTemplate("no-such-template"), undefined);
});

Deno.test("every template is documented: summary, govcat usage, a description per column, valid examples", () => {
  for (const t of CSV_TEMPLATES) {
    assert.ok(t.summary.length > 10, `${t.name} summary`);
    assert.match(t.usage, /^govcat /, `${t.name} usage names the command`);
    assert.ok(t.sample.length >= 2, `${t.name} has at least two sample rows`);
    for (const column of t.columns) {
      assert.ok(column.description.length > 5, `${t.name}.${column.name} description`);
      // Required columns always show an example; optional ones may leave it to the sample rows.
      if (column.example === undefined) {
        assert.ok(!column.required && !column.requiredColumn, `${t.name}.${column.name} example`);
        continue;
      }
      const parts = column.multi ? column.example.split(";") : [column.example];
      for (const part of parts) {
        const converted = convertCell(column, part);
        assert.ok(
          !(converted instanceof CellError),
          `${t.name}.${column.name} example "${part}": ${(converted as CellError).message}`,
        );
      }
    }
    for (const row of t.sample) assert.equal(row.length, t.columns.length, `${t.name} sample row width`);
  }
});

Deno.test("every template's sample file passes the template with no problem", async () => {
  for (const t of CSV_TEMPLATES) {
    const text = sampleCsvLines(t).join("\r\n") + "\r\n";
    const report = await checkCsvText(text, `${t.name}.csv`, t);
    assert.deepEqual(report.problems.map(formatProblem), [], t.name);
    assert.equal(report.rows, t.sample.length, t.name);
  }
});

/** For each template: a change to its first sample row that breaks it, and where and how it is reported. */
const BAD_ROWS: Record<string, { change: Record<string, string>; column: string; message: RegExp }> = {
  "entity-bulk-import": {
    change: { owner: "jane@contoso.com" },
    column: "owner",
    message: /e-mail address.*GUID/,
  },
  "entity-bulk-update": {
    change: { guid: "", typeName: "", qualifiedName: "mssql://x/y" },
    column: "typeName",
    message: /no guid.*typeName/,
  },
  "entity-dataset": {
    change: { owner_email: "sales-data" },
    column: "owner_email",
    message: /not an e-mail/,
  },
  "entity-classified": { change: { classifications: " ; " }, column: "classifications", message: /required/ },
  "entity-table": {
    change: { qualifiedName: "MSSQL://contoso-sql.database.windows.net/sales/dbo/ORDERS" },
    column: "typeName",
    message: /also on line 2/,
  },
  "glossary-terms": { change: { status: "Final" }, column: "status", message: /not one of Draft/ },
  "glossary-assignments": { change: { term_guid: "term-1" }, column: "term_guid", message: /not a GUID/ },
  "lineage-table": { change: { confidence_score: "1.5" }, column: "confidence_score", message: /0 to 1/ },
  "lineage-column": { change: { target_column: "" }, column: "target_column", message: /required/ },
  "lineage-basic": {
    // The row's own source, in capitals: GUIDs compare without letter case.
    change: { target_entity_guid: template("lineage-basic").sample[0][0].toUpperCase() },
    column: "target_entity_guid",
    message: /same entity/,
  },
  "lineage-column-sample": { change: { metadata: "[1,2]" }, column: "metadata", message: /JSON object/ },
  "uc-term-bulk": { change: { owner_id: "jane@contoso.com" }, column: "owner_id", message: /e-mail address/ },
  "uc-term-all-fields": { change: { contacts: "not-an-id" }, column: "contacts", message: /not an Entra ID/ },
  "uc-term-bulk-update": { change: { term_id: "term-7" }, column: "term_id", message: /not a GUID/ },
  "uc-term-multi-value": { change: { status: "ACTIVE" }, column: "status", message: /not one of DRAFT/ },
  "collections": { change: { collection_name: "x" }, column: "collection_name", message: /not a valid/ },
  "collections-export": {
    change: { collection_name: "sales", parent_collection: "SALES" },
    column: "parent_collection",
    message: /own parent/,
  },
  "business-metadata": {
    change: { BusinessAttributeName: "dataOwner" },
    column: "BusinessAttributeName",
    message: /<group>\.<attribute>/,
  },
  "role-assignments": { change: { action: "grant" }, column: "action", message: /add, remove/ },
};

Deno.test("every template refuses a crafted bad row, naming its line and column", async () => {
  assert.deepEqual(Object.keys(BAD_ROWS).sort(), [...EXPECTED_NAMES].sort(), "a bad row for each template");
  for (const [name, bad] of Object.entries(BAD_ROWS)) {
    const t = template(name);
    const report = await checkCsvText(withBadRow(t, bad.change), `${name}.csv`, t);
    assert.equal(report.problemCount, 1, `${name}: ${report.problems.map(formatProblem).join("; ")}`);
    const [problem] = report.problems;
    assert.equal(problem.line, 3, name);
    assert.equal(problem.column, sampleHeader(t).indexOf(bad.column) + 1, name);
    assert.equal(problem.columnName, bad.column, name);
    assert.match(problem.message, bad.message, name);
    assert.match(formatProblem(problem), new RegExp(`^${name}\\.csv:3:\\d+: column ${bad.column}: `));
  }
});

Deno.test("more row rules: resource pairs, bm and attr columns, guid-named entities, terms with '@'", async () => {
  const uc = template("uc-term-bulk");
  const unpaired = await checkCsvText(
    "name,resource_name,resource_url\nA,Wiki;Spec,https://x.example/wiki\n",
    "t.csv",
    uc,
  );
  assert.equal(unpaired.problemCount, 1);
  assert.match(unpaired.problems[0].message, /1 resource_url value\(s\) for 2 resource_name/);
  assert.equal(unpaired.problems[0].columnName, "resource_url");

  const entities = template("entity-bulk-import");
  const patterns = await checkCsvText(
    'typeName,qualifiedName,attr.retention,bm.Governance,bm.Governance.dataOwner\nDataSet,ds://a,"[1]",x,Sales\n',
    "e.csv",
    entities,
  );
  // Refused in the header, before any row is read: such a column names no business attribute.
  assert.deepEqual(patterns.problems.map((p) => [p.line, p.columnName]), [[1, "bm.Governance"]]);
  assert.match(patterns.problems[0].message, /bm\.<group>\.<attribute>/);

  const bm = template("business-metadata");
  const byGuid = await checkCsvText(
    "EntityType,EntityUniqueAttributeValue,BusinessAttributeName,BusinessAttributeValue," +
      "EntityUniqueAttributeName[optional]\nDataSet,ds://a,Governance.dataOwner,Sales,GUID\n",
    "bm.csv",
    bm,
  );
  assert.equal(byGuid.problemCount, 1);
  assert.match(byGuid.problems[0].message, /not a GUID.*guid/);

  const terms = template("glossary-terms");
  const at = await checkCsvText("name\nsales@contoso\n", "g.csv", terms);
  assert.match(at.problems[0].message, /contains '@'/);
});

Deno.test("object IDs: an e-mail address gets its own message, other non-GUIDs another", () => {
  const problems = objectIdProblems("owner_id", [
    "jane@contoso.com",
    "jane",
    "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
  ]);
  assert.equal(problems.length, 2);
  assert.match(problems[0][1], /"jane@contoso.com" is an e-mail address; owner_id takes Entra ID object IDs/);
  assert.match(problems[1][1], /"jane" is not an Entra ID object ID \(a GUID/);
});

Deno.test("detectCsvTemplate picks each template from its sample header", () => {
  for (const t of CSV_TEMPLATES) {
    const detected = detectCsvTemplate(sampleHeader(t));
    // The column sample has the same columns as lineage-column, which comes first.
    const expected = t.name === "lineage-column-sample" ? "lineage-column" : t.name;
    assert.equal(detected?.name, expected, `header of ${t.name}`);
  }
});

Deno.test("detectCsvTemplate: any spelling, fewest unknown columns, reject columns ignored, none when required columns miss", () => {
  assert.equal(detectCsvTemplate(["Term GUID", "ENTITY_GUID"])?.name, "glossary-assignments");
  assert.equal(detectCsvTemplate(["source_entity_guid", "target_entity_guid"])?.name, "lineage-basic");
  assert.equal(
    detectCsvTemplate(["source_entity_guid", "target_entity_guid", "confidence_score"])?.name,
    "lineage-table",
  );
  assert.equal(
    detectCsvTemplate(["typeName", "qualifiedName", "attr.retention", "bm.Gov.owner"])?.name,
    "entity-bulk-import",
  );
  assert.equal(detectCsvTemplate(["guid", "description"])?.name, "entity-bulk-update");
  assert.equal(
    detectCsvTemplate(["collection_name", "friendly_name", "parent_collection", "path"])?.name,
    "collections-export",
  );
  assert.equal(
    detectCsvTemplate(["term_id", "status", "source_line", "import_error"])?.name,
    "uc-term-bulk-update",
  );
  // An unknown column does not stop detection: the check then reports it.
  assert.equal(detectCsvTemplate(["term_guid", "entity_guid", "note"])?.name, "glossary-assignments");
  assert.equal(detectCsvTemplate(["foo", "bar"]), undefined);
  assert.equal(detectCsvTemplate([]), undefined);
  const lineageOnly = CSV_TEMPLATES.filter((t) => t.name.startsWith("lineage"));
  assert.equal(detectCsvTemplate(["name", "status"], lineageOnly), undefined, "only the candidates count");
  const [closest] = rankCsvTemplates(["source_entity_guid", "process_name"]);
  assert.equal(closest.template.name, "lineage-basic");
  assert.deepEqual(closest.missingRequired, ["target_entity_guid"]);
});

Deno.test("a header that is one template's with a required column left out is that template's, missing it", () => {
  // Every template's sample header without one required column ranks first the template itself (or one
  // with the same columns), not a template that could read the rest but not know some of it.
  const sameColumns = (a: CsvTemplate, b: CsvTemplate) =>
    a.columns.length === b.columns.length &&
    a.columns.every((column, i) => column.name === b.columns[i].name);
  for (const template of CSV_TEMPLATES) {
    for (const column of template.columns.filter((c) => c.required || c.requiredColumn)) {
      const header = sampleHeader(template).filter((name) => name !== column.name);
      const [best] = rankCsvTemplates(header);
      const exact = best.missingRequired.length === 0 && best.unknown.length === 0;
      assert.ok(
        sameColumns(best.template, template) || exact,
        `${template.name} without ${column.name}: ranked ${best.template.name} first (missing ` +
          `${best.missingRequired}, unknown ${best.unknown})`,
      );
      if (!exact) {
        assert.deepEqual(best.missingRequired, [column.name], `${template.name} without ${column.name}`);
      }
    }
  }
  // The case that led here: a table file without qualifiedName is not a dataset file with a stray typeName.
  const [table] = rankCsvTemplates(["name", "typeName", "description"]);
  assert.deepEqual([table.template.name, table.missingRequired], ["entity-table", ["qualifiedName"]]);
  assert.equal(detectCsvTemplate(["name", "typeName", "description"]), undefined);
  // A header some template reads as it is still goes to that template.
  assert.equal(detectCsvTemplate(["name", "description"])?.name, "entity-dataset");
});
