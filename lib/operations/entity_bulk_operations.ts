/**
 * `entity bulk-import` and `entity bulk-update-csv`: entities from CSV files through the bulk engine
 * (`lib/csv`), in batches sent as `POST /entity/bulk` upserts by unique attribute. The import takes the
 * templates entity-bulk-import, entity-dataset, entity-classified and entity-table (detected from the header
 * when `--template` is not given); the update reads the named entities first and writes only the given
 * attributes, so a row never blanks what it does not mention.
 *
 * The import adds: a row whose entity exists already is skipped, leaving it as it is (a plain
 * upsert would overwrite its description), unless `--if-exists=update`, confirmed as every overwrite is
 * (`confirmation.ts`). The check is made by the import itself, batch by batch just before sending, rather
 * than by the engine's `--skip-existing`, which runs before the engine asks whether an interrupted batch was
 * applied: a row an earlier run wrote still counts as recovered, not skipped.
 *
 * Both offer `--plan` and `--apply-plan` (`plan_options.ts`): each import's `diff` says what a row would
 * change, field by field (`lib/imports/entity_csv_diff.ts`). Reads and writes of the catalog are in
 * `lib/imports/entity_catalog_io.ts`.
 *
 * @module
 */
import type { CatalogClient } from "../catalog/client.ts";
import type { AtlasEntity } from "../catalog/types.ts";
import { chooseTemplate, templateNamed } from "../csv/template_choice.ts";
import type {
  BulkImport,
  CsvTemplate,
  ImportUnit,
  PlannedAction,
  UnitDiff,
  UnitOutcome,
} from "../csv/types.ts";
import { z } from "../deps/zod.ts";
import { UsageError } from "../errors.ts";
import { bulkImportFields, engineOptions } from "./bulk_options.ts";
import { confirmOverwrite, overwriteConfirmField } from "./if_exists.ts";
import {
  changeFromRow,
  type EntityChange,
  entityFromRow,
  type EntityItem,
} from "../imports/entity_csv_rows.ts";
import { entityDiff, type EntityWrite } from "../imports/entity_csv_diff.ts";
import { checkPlanInput, planFields, runImportOrPlan } from "./plan_options.ts";
import { defineOperation, type OperationContext, UPSERT } from "./types.ts";
import {
  existingKey as key,
  existingKeys,
  existingKeysOfKnownTypes,
  holds,
  LOOKUP_CHUNK,
  writeEntities,
} from "../imports/entity_catalog_io.ts";
import { SharedLookups } from "../imports/entity_lookups.ts";

export {
  existingKey,
  existingKeys,
  existingKeysOfKnownTypes,
  LOOKUP_CHUNK,
} from "../imports/entity_catalog_io.ts";

/** The templates `entity bulk-import` accepts. */
export const ENTITY_IMPORT_TEMPLATES = [
  "entity-bulk-import",
  "entity-dataset",
  "entity-classified",
  "entity-table",
] as const;

/** What {@link entityCsvImport} does with a row whose entity exists already. */
export interface EntityImportOptions {
  /** Overwrite it (`--if-exists=update`); by default it is skipped, unchanged. */
  overwrite?: boolean;
}

/** The bulk import of entities from rows of `template`. */
export function entityCsvImport(
  catalog: CatalogClient,
  template: CsvTemplate,
  options: EntityImportOptions = {},
): BulkImport<EntityItem> {
  const pairOf = (unit: ImportUnit<EntityItem>) => ({
    typeName: unit.item.entity.typeName,
    qualifiedName: String(unit.item.entity.attributes.qualifiedName),
  });
  const keyOf = (pair: { typeName: string; qualifiedName: string }) => key(pair.typeName, pair.qualifiedName);
  const existing = async (units: ImportUnit<EntityItem>[], signal: AbortSignal) => {
    const pairs = units.map(pairOf);
    const found = await existingKeysOfKnownTypes(catalog, pairs, signal);
    return pairs.map((pair) => found.has(keyOf(pair)));
  };
  // Batches sent at the same time share their lookups (entity_lookups.ts).
  const lookups = new SharedLookups(catalog);
  const existingBeforeSend = async (units: ImportUnit<EntityItem>[], signal: AbortSignal) => {
    const pairs = units.map(pairOf);
    const found = await lookups.find(pairs, signal);
    return pairs.map((pair) => found.has(keyOf(pair)));
  };
  return {
    id: "entity.bulk-import",
    template,
    toItem: (row) => entityFromRow(template.name, row),
    send: async (units, signal) => {
      const skip = options.overwrite ? units.map(() => false) : await existingBeforeSend(units, signal);
      const writing = units.filter((_, i) => !skip[i]);
      const written = writing.length > 0
        ? await writeEntities(catalog, writing.map((unit) => unit.item), signal)
        : [];
      let next = 0;
      return skip.map((skipped): UnitOutcome => ({ status: skipped ? "skipped" : written[next++] }));
    },
    existing,
    applied: async (units, signal) => {
      const found = await existingKeysOfKnownTypes(catalog, units.map(pairOf), signal);
      return units.map((unit) => {
        const stored = found.get(keyOf(pairOf(unit)));
        return stored !== undefined && holds(stored, unit.item.entity);
      });
    },
    plan: async (units, signal) =>
      (await existing(units, signal)).map((found): PlannedAction =>
        found ? (options.overwrite ? "update" : "skip") : "create"
      ),
    diff: async (units, signal) => {
      const found = await existingKeysOfKnownTypes(catalog, units.map(pairOf), signal);
      return units.map(({ item }) => {
        const { typeName, attributes } = item.entity;
        const { qualifiedName: _key, ...written } = attributes;
        return entityDiff(
          `${typeName} ${attributes.qualifiedName}`,
          found.get(key(typeName, String(attributes.qualifiedName))),
          {
            attributes: written,
            businessAttributes: item.entity.businessAttributes as EntityWrite["businessAttributes"],
            contacts: item.entity.contacts as EntityWrite["contacts"],
            classifications: item.entity.classifications?.map((c) => c.typeName),
            labels: item.entity.labels,
            collection: item.collection,
          },
          options.overwrite ? "update" : "skip",
        );
      });
    },
    describe: ({ item }) => ({
      typeName: item.entity.typeName,
      qualifiedName: item.entity.attributes.qualifiedName,
      name: item.entity.attributes.name,
      ...(item.collection ? { collection: item.collection } : {}),
    }),
    onThrottle: (listener) =>
      catalog.http.onThrottle((pauseMs) => {
        lookups.throttled(pauseMs);
        listener(pauseMs);
      }),
  };
}

/** Resolves update rows to the entities they name: by guid, or by type and qualified name. */
async function resolveChanges(
  catalog: CatalogClient,
  changes: EntityChange[],
  signal: AbortSignal,
): Promise<Array<AtlasEntity | undefined>> {
  const guids = [...new Set(changes.flatMap((c) => c.guid ? [c.guid] : []))];
  const byGuid = new Map<string, AtlasEntity>();
  for (let i = 0; i < guids.length; i += LOOKUP_CHUNK) {
    const result = await catalog.entity.getMany(guids.slice(i, i + LOOKUP_CHUNK), {
      minExtInfo: true,
      ignoreRelationships: true,
      signal,
    });
    for (const entity of result.entities ?? []) {
      if (entity.guid && entity.status !== "DELETED") byGuid.set(entity.guid, entity);
    }
  }
  const pairs = changes.flatMap((c) =>
    c.guid ? [] : [{ typeName: c.typeName!, qualifiedName: c.qualifiedName! }]
  );
  const byKey = pairs.length > 0
    ? await existingKeys(catalog, pairs, signal)
    : new Map<string, AtlasEntity>();
  return changes.map((c) => c.guid ? byGuid.get(c.guid) : byKey.get(key(c.typeName!, c.qualifiedName!)));
}

const missingReason = (change: EntityChange) =>
  change.guid
    ? `no active entity has guid ${change.guid}`
    : `no active ${change.typeName} has qualifiedName ${change.qualifiedName}`;

/** Whether the stored entity already carries every cell an update row writes. */
function holdsChange(stored: AtlasEntity, change: EntityChange): boolean {
  if (
    !holds(stored, {
      typeName: stored.typeName,
      attributes: change.attributes,
      businessAttributes: change.businessAttributes,
    })
  ) {
    return false;
  }
  const contacts = (stored.contacts ?? {}) as Record<string, Array<{ id?: string }>>;
  return Object.entries(change.contacts ?? {}).every(([kind, wanted]) => {
    const ids = new Set((contacts[kind] ?? []).map((contact) => contact.id));
    return wanted.every((contact) => ids.has(contact.id));
  });
}

/**
 * The contacts a full write of `target` carries when a row names its owners: the row's owners (keeping the
 * note each already had) and every other kind of contact as it is, since the write replaces them all.
 */
function mergedContacts(
  target: AtlasEntity,
  wanted: Record<string, Array<{ id: string }>>,
): NonNullable<AtlasEntity["contacts"]> {
  const stored = target.contacts ?? {};
  const merged: NonNullable<AtlasEntity["contacts"]> = { ...stored };
  for (const [kind, contacts] of Object.entries(wanted)) {
    const known = new Map((stored[kind] ?? []).map((contact) => [contact.id, contact]));
    merged[kind] = contacts.map((contact) => known.get(contact.id) ?? contact);
  }
  return merged;
}

/** The bulk update of entities from rows of the entity-bulk-update template. */
export function entityCsvUpdate(catalog: CatalogClient, template: CsvTemplate): BulkImport<EntityChange> {
  return {
    id: "entity.bulk-update-csv",
    template,
    toItem: changeFromRow,
    send: async (units, signal) => {
      const changes = units.map((unit) => unit.item);
      const targets = await resolveChanges(catalog, changes, signal);
      const outcomes: UnitOutcome[] = new Array(units.length);
      const writes: Array<{ entity: AtlasEntity; collection?: string }> = [];
      const writeIndex: number[] = [];
      changes.forEach((change, i) => {
        const target = targets[i];
        if (!target) {
          outcomes[i] = { status: "rejected", reason: `404: ${missingReason(change)}`, httpStatus: 404 };
          return;
        }
        const entity: AtlasEntity = {
          typeName: target.typeName,
          guid: target.guid,
          // A full write must carry the mandatory attributes; everything else keeps its value.
          attributes: {
            qualifiedName: target.attributes?.qualifiedName,
            name: target.attributes?.name,
            ...change.attributes,
          },
        };
        if (change.businessAttributes) entity.businessAttributes = change.businessAttributes;
        if (change.contacts) entity.contacts = mergedContacts(target, change.contacts);
        writes.push({ entity, collection: change.collection });
        writeIndex.push(i);
      });
      if (writes.length > 0) {
        await writeEntities(catalog, writes, signal);
        writeIndex.forEach((i) => outcomes[i] = { status: "updated" });
      }
      return outcomes;
    },
    // A batch whose answer was lost, or that a killed run left in flight, is asked about before it is sent
    // again: an update the entity holds already was applied (sending it again would write it twice).
    applied: async (units, signal) => {
      const targets = await resolveChanges(catalog, units.map((unit) => unit.item), signal);
      return targets.map((target, i) => target !== undefined && holdsChange(target, units[i].item));
    },
    plan: async (units, signal) => {
      const targets = await resolveChanges(catalog, units.map((unit) => unit.item), signal);
      return targets.map((target): PlannedAction => target ? "update" : "reject");
    },
    diff: async (units, signal) => {
      const targets = await resolveChanges(catalog, units.map((unit) => unit.item), signal);
      return units.map(({ item }, i): UnitDiff => {
        const target = item.guid ?? `${item.typeName} ${item.qualifiedName}`;
        const stored = targets[i];
        if (!stored) {
          return { action: "reject", target, changes: [], reason: missingReason(item), read: { guid: null } };
        }
        return entityDiff(target, stored, item);
      });
    },
    describe: ({ item }) => ({
      ...(item.guid ? { guid: item.guid } : { typeName: item.typeName, qualifiedName: item.qualifiedName }),
      attributes: item.attributes,
      ...(item.businessAttributes ? { businessAttributes: item.businessAttributes } : {}),
      ...(item.collection ? { collection: item.collection } : {}),
    }),
    onThrottle: (listener) => catalog.http.onThrottle(listener),
  };
}

const csvFile = z.string().min(1).describe("The CSV file to import");

export const bulkImportEntities = defineOperation({
  id: "entity.bulk-import",
  group: "entity",
  command: "bulk-import",
  aliases: ["bulkImport", "bulk-create-csv"],
  summary: "Create entities from a CSV file, in resumable batches; existing ones are skipped unless " +
    "--if-exists=update",
  description: "Templates: entity-bulk-import (typeName, qualifiedName, displayName, description, owner, " +
    "source, collection, attr.<attribute>, bm.<group>.<attribute>), entity-dataset (name, description, " +
    "owner_email, source_system, tags, location, format), entity-classified (name, typeName, qualifiedName, " +
    "classifications) and entity-table (name, typeName, qualifiedName, description); detected from the " +
    "header unless --template names one. Every row is checked first (nothing is sent when any is wrong); " +
    "rows the catalog refuses go to the errors file with its answer. A row whose entity (same type and " +
    "qualified name) exists already is skipped and the entity left as it is, unless --if-exists=update: " +
    "then its attributes are overwritten, once confirmed (--confirm; a dry run needs no confirmation).",
  input: z.object({
    csvFile,
    template: z.enum(ENTITY_IMPORT_TEMPLATES).optional().describe("Template of the file (default: detected)"),
    ...bulkImportFields,
    ...planFields,
    ifExists: z.enum(["skip", "update"]).default("skip").describe(
      "Rows whose entity exists already: skip (default; the entity is left as it is) or update " +
        "(overwrites its attributes; needs confirmation)",
    ),
    confirm: overwriteConfirmField,
  }),
  // Not destructive by default; --if-exists=update overwrites, once confirmed (if_exists.ts), and the MCP
  // listing shows the operation as destructive.
  annotations: UPSERT,
  run: async (ctx: OperationContext, input) => {
    const { ifExists, confirm, plan: _plan, planFile: _planFile, applyPlan: _applyPlan, ...rest } = input;
    checkPlanInput("entity bulk-import", input);
    const overwrite = ifExists === "update";
    if (overwrite && rest.skipExisting) {
      throw new UsageError(
        "entity bulk-import: --if-exists=update and --skip-existing contradict each other; nothing was read.",
        "Leave out --skip-existing to overwrite existing entities, or --if-exists to skip them.",
      );
    }
    if (overwrite && !rest.dryRun && !input.plan) {
      await confirmOverwrite(ctx, `entity bulk-import --if-exists=update ${input.csvFile}`, confirm);
    }
    const options = await engineOptions(ctx, rest, input.csvFile, "--csv-file");
    const template = await chooseTemplate(
      options.file,
      input.csvFile,
      input.template,
      ENTITY_IMPORT_TEMPLATES,
      { delimiter: options.delimiter, signal: ctx.signal },
    );
    options.settings = { template: template.name };
    return await runImportOrPlan(
      ctx,
      entityCsvImport(ctx.catalog(), template, { overwrite }),
      options,
      input,
      { ifExists },
    );
  },
});

export const bulkUpdateEntitiesCsv = defineOperation({
  id: "entity.bulk-update-csv",
  group: "entity",
  command: "bulk-update-csv",
  aliases: ["bulkUpdateCsv"],
  summary: "Update attributes of existing entities from a CSV file, in resumable batches",
  description: "Columns: guid, or typeName and qualifiedName, to name the entity; then any of " +
    "displayName, description, owner, source, collection, attr.<attribute>, bm.<group>.<attribute>. Only " +
    "the cells given are written; rows naming no existing entity are rejected into the errors file.",
  input: z.object({ csvFile, ...bulkImportFields, ...planFields }),
  annotations: UPSERT,
  run: async (ctx: OperationContext, input) => {
    checkPlanInput("entity bulk-update-csv", input);
    const options = await engineOptions(ctx, input, input.csvFile, "--csv-file");
    const template = templateNamed("entity-bulk-update", ["entity-bulk-update"]);
    return await runImportOrPlan(ctx, entityCsvUpdate(ctx.catalog(), template), options, input);
  },
});

export const ENTITY_BULK_OPERATIONS = [bulkImportEntities, bulkUpdateEntitiesCsv];
