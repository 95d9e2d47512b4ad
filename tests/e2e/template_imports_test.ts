/**
 * Every CSV template govcat ships, written by `govcat templates write`, passes `validate csv` and imports
 * cleanly into the seeded emulator through the command its usage names: the samples users start from
 * must work as they are.
 */
import assert from "node:assert/strict";
import { CSV_TEMPLATES } from "../../lib/templates/csv/mod.ts";
import { type ImportSetup, withImportSetup } from "../support/import_setup.ts";

/** A governance domain for the unified catalog term samples. */
async function domainId(setup: ImportSetup): Promise<string> {
  const domain = await setup.unified.domains.create({ name: "Samples", type: "FunctionalUnit" });
  return domain.id!;
}

/**
 * Samples that update existing terms name placeholder ids, which a user replaces with real ones: do the
 * same with terms created here.
 */
async function withRealIds(
  setup: ImportSetup,
  template: string,
  text: string,
  domain?: string,
): Promise<string> {
  if (template === "glossary-assignments") {
    const glossary = await setup.catalog.glossary.create({ name: "Assignments" });
    const term = await setup.catalog.glossary.createTerm({
      name: "Customer",
      anchor: { glossaryGuid: glossary.guid },
    });
    return text.replaceAll("3c4d5e6f-7081-4293-a4b5-c6d7e8f90a1b", term.guid!);
  }
  if (template === "uc-term-bulk-update") {
    for (
      const [placeholder, name] of [
        ["5e6f7081-92a3-44b5-86c7-d8e9f0a1b2c3", "Customer Lifetime Value"],
        ["6f708192-a3b4-45c6-97d8-e9f0a1b2c3d4", "Churn Rate"],
      ]
    ) {
      const term = await setup.unified.terms.create({ name, domain: domain!, status: "DRAFT" });
      text = text.replaceAll(placeholder, term.id!);
    }
  }
  return text;
}

/** The command line that imports `file` written from `template`. */
function importCommand(template: string, file: string, domain: string): string[] {
  if (template === "entity-bulk-update") return ["entity", "bulk-update-csv", "--csv-file", file];
  if (template.startsWith("entity-")) {
    return ["entity", "bulk-import", "--csv-file", file, "--template", template];
  }
  if (template === "glossary-terms") {
    return ["glossary", "import-terms", "--csv-file", file, "--glossary-guid", domain];
  }
  if (template === "glossary-assignments") return ["glossary", "assign_terms", "--csv-file", file];
  if (template.startsWith("lineage-")) return ["lineage_csv", "process", file];
  if (template.startsWith("uc-term-")) {
    return ["uc", "term", "import-csv", "--csv-file", file, "--domain-id", domain];
  }
  if (template.startsWith("collections")) return ["collections", "import", "--csv-file", file];
  if (template === "business-metadata") return ["entity", "import-business-metadata", "--bm-file", file];
  if (template === "role-assignments") return ["policy", "import", "--csv-file", file, "--confirm"];
  throw new Error(`no import command known for template ${template}`);
}

for (const template of CSV_TEMPLATES) {
  Deno.test(`template ${template.name}: its sample validates and imports cleanly`, async () => {
    await withImportSetup({ seed: true }, async (setup) => {
      const file = `${setup.dir}/${template.name}.csv`;
      const written = await setup.govcat("templates", "write", template.name, "--output-file", file);
      assert.equal(written.code, 0, written.stderr);
      const validated = await setup.govcat(
        "validate",
        "csv",
        "--csv-file",
        file,
        "--template",
        template.name,
      );
      assert.equal(validated.code, 0, validated.stdout + validated.stderr);
      assert.equal(validated.json.valid, true);
      assert.equal(validated.json.rows, template.sample.length);

      // The glossary term sample goes into a new glossary, the unified catalog ones into a new domain.
      const target = template.name === "glossary-terms"
        ? (await setup.catalog.glossary.create({ name: "Samples" })).guid!
        : template.name.startsWith("uc-term-")
        ? await domainId(setup)
        : "";
      await Deno.writeTextFile(
        file,
        await withRealIds(setup, template.name, await Deno.readTextFile(file), target),
      );
      const imported = await setup.govcat(...importCommand(template.name, file, target));
      assert.equal(imported.code, 0, `${imported.stdout}\n${imported.stderr}`);
      if (imported.json && typeof imported.json.rejected === "number") {
        assert.equal(imported.json.rejected, 0);
        assert.equal(imported.json.pending, 0);
      }
    });
  });
}
