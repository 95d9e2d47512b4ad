/**
 * The emulator keeps its own copy of the facts: the value lists it checks requests
 * against are written in `lib/emulator` as data, not imported from the client, and each is compared here to
 * the contract it comes from, read from `../shared/reference`: the data source and scan kinds to the
 * scanning contract's models, the unified catalog's enumerations to the contract notes' "Enums" section,
 * the workflow trigger and operation types to the workflow contract's enums.
 * A source test also checks that `lib/emulator` imports no value list from the client's modules.
 *
 * @module
 */
import assert from "node:assert/strict";
import { DATA_SOURCE_KINDS, SCAN_KINDS } from "../../lib/emulator/scan/kinds.ts";
import * as unified from "../../lib/emulator/unified/enums.ts";
import {
  REFERENCE_DIR,
  referenceAvailable,
  REPO_ROOT,
  SKIPPED_SUFFIX,
} from "../support/contract/reference.ts";
import { SCANNING_CONTRACT_FILE } from "../support/contract/scanning.ts";
import { WORKFLOW_CONTRACT_FILE } from "../support/contract/workflow.ts";
import { TRIGGER_TYPES } from "../../lib/emulator/workflow/shape.ts";
import { OPERATION_TYPES, TRIGGER_OF } from "../../lib/emulator/workflow/requests.ts";

const AVAILABLE = referenceAvailable({ quiet: true });
const UNIFIED_NOTES = new URL("unified-catalog.md", REFERENCE_DIR);

type Definitions = Record<string, { allOf?: Array<{ $ref?: string }>; "x-ms-discriminator-value"?: string }>;

/** The discriminator values of the models deriving from `base` (one model per kind). */
function discriminatorValues(definitions: Definitions, base: string): string[] {
  return Object.values(definitions)
    .filter((def) => def.allOf?.some((part) => part.$ref === `#/definitions/${base}`))
    .map((def) => def["x-ms-discriminator-value"])
    .filter((value): value is string => typeof value === "string");
}

async function scanningDefinitions(): Promise<Definitions & Record<string, unknown>> {
  return JSON.parse(await Deno.readTextFile(SCANNING_CONTRACT_FILE)).definitions;
}

/**
 * The "Enums:" section of the unified catalog notes: `Label: A | B | C`, continued on indented lines,
 * by label (the text before the colon, without a parenthesised remark). A trailing `...` is kept.
 */
function unifiedEnums(text: string): Map<string, string[]> {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.trim() === "Enums:");
  const enums = new Map<string, string[]>();
  let current: string | undefined;
  let values = "";
  const flush = () => {
    if (current) enums.set(current, values.split("|").map((v) => v.trim()).filter((v) => v !== ""));
  };
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === "" || !line.startsWith(" ")) break;
    if (!line.startsWith("    ")) {
      // A new entry, or a remark such as "(SDK enums are case-insensitive.)" that ends the previous one.
      flush();
      const entry = /^ {2}([^(:][^:]*):\s*(.*)$/.exec(line);
      current = entry?.[1].replace(/\s*\(.*\)\s*$/, "").trim();
      values = entry?.[2] ?? "";
    } else if (current) {
      values += " " + line.trim();
    }
  }
  flush();
  return enums;
}

Deno.test("unifiedEnums reads labels, remarks and continued lines", () => {
  const notes =
    "Intro\nEnums:\n  A (bodies): X | Y\n  B type: P |\n    Q | R\n  C: M | ...\n  (note)\n\nShapes:\n";
  const enums = unifiedEnums(notes);
  assert.deepEqual(enums.get("A"), ["X", "Y"]);
  assert.deepEqual(enums.get("B type"), ["P", "Q", "R"]);
  assert.deepEqual(enums.get("C"), ["M", "..."]);
});

const CLIENT_LIST_MODULES = [
  "lib/catalog/unified_enums.ts",
  "lib/catalog/scan_types.ts",
  "lib/catalog/workflow_types.ts",
];

Deno.test("lib/emulator imports no value list from the client's modules", async () => {
  const offenders: string[] = [];
  const walk = async (dir: URL) => {
    for await (const entry of Deno.readDir(dir)) {
      const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
      if (entry.isDirectory) await walk(url);
      else if (entry.name.endsWith(".ts")) {
        const text = await Deno.readTextFile(url);
        // Resolved, not matched by name: the emulator has its own unified/enums.ts.
        for (const match of text.matchAll(/from\s+"(\.{1,2}\/[^"]+)"/g)) {
          const target = new URL(match[1], url).pathname.slice(REPO_ROOT.pathname.length);
          if (CLIENT_LIST_MODULES.includes(target)) {
            offenders.push(`${url.pathname.slice(REPO_ROOT.pathname.length)} imports ${match[1]}`);
          }
        }
      }
    }
  };
  await walk(new URL("lib/emulator/", REPO_ROOT));
  assert.deepEqual(offenders, []);
});

if (!AVAILABLE) {
  Deno.test({ name: `emulator value lists match their contracts ${SKIPPED_SUFFIX}`, ignore: true, fn() {} });
} else {
  Deno.test("emulator workflow trigger and operation types are the workflow contract's", async () => {
    const definitions = JSON.parse(await Deno.readTextFile(WORKFLOW_CONTRACT_FILE)).definitions;
    const triggers: string[] = definitions.Trigger.properties.type.enum;
    const operations: string[] = definitions.OperationType.enum;
    assert.deepEqual([...TRIGGER_TYPES].sort(), [...triggers].sort());
    assert.deepEqual([...OPERATION_TYPES].sort(), [...operations].sort());
    assert.deepEqual(
      Object.values(TRIGGER_OF).sort(),
      [...triggers].sort(),
      "each trigger watches one operation",
    );
  });

  Deno.test("emulator data source kinds are the scanning contract's data source models", async () => {
    const contract = discriminatorValues(await scanningDefinitions(), "DataSource");
    assert.ok(contract.length > 0, "the contract defines data source models");
    assert.deepEqual([...DATA_SOURCE_KINDS].sort(), [...contract].sort());
  });

  Deno.test("emulator scan kinds: every scan model, and only ScanAuthorizationType values of known data sources", async () => {
    const definitions = await scanningDefinitions();
    const models = discriminatorValues(definitions, "Scan");
    const scan = definitions.Scan as { properties?: { kind?: { enum?: string[] } } };
    const authorizationTypes = new Set(scan.properties?.kind?.enum ?? []);
    assert.ok(models.length > 0 && authorizationTypes.size > 0, "the contract defines scan kinds");
    assert.deepEqual(
      models.filter((kind) => !SCAN_KINDS.includes(kind)),
      [],
      "scan models the emulator lacks",
    );
    assert.deepEqual(
      SCAN_KINDS.filter((kind) => !authorizationTypes.has(kind)),
      [],
      "kinds the contract lacks",
    );
    const withoutSource = SCAN_KINDS.filter((kind) =>
      !DATA_SOURCE_KINDS.some((source) => kind.startsWith(source))
    );
    assert.deepEqual(withoutSource, [], "scan kinds of no data source kind");
  });

  Deno.test("emulator unified catalog enumerations are the contract notes' enums", async () => {
    const enums = unifiedEnums(await Deno.readTextFile(UNIFIED_NOTES));
    const expected: Array<[string, readonly string[]]> = [
      ["CatalogModelStatus", unified.ENTITY_STATUSES],
      ["SharedEntityStatus", unified.FILTER_STATUSES],
      ["OkrSharedEntityStatus", unified.OBJECTIVE_STATUSES],
      ["OverallStatusEnum", unified.KEY_RESULT_STATUSES],
      ["Domain type", unified.DOMAIN_TYPES],
      ["DataProduct type", unified.DATA_PRODUCT_TYPES],
      ["UpdateFrequency", unified.UPDATE_FREQUENCIES],
      ["Audience", unified.AUDIENCES],
      ["CDE dataType", unified.CDE_DATA_TYPES],
      ["TermRelationshipType", unified.TERM_RELATIONSHIP_TYPES],
    ];
    for (const [label, list] of expected) {
      assert.deepEqual([...list], enums.get(label), `${label} in ${UNIFIED_NOTES.pathname}`);
    }
    // EntityCategory ends with "...": the contract's values are listed, the service may know more.
    const categories = enums.get("EntityCategory") ?? [];
    assert.equal(categories.at(-1), "...", "EntityCategory is open-ended in the notes");
    assert.deepEqual([...unified.ENTITY_CATEGORIES], categories.slice(0, -1), "EntityCategory");
  });
}
