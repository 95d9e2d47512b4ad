/**
 * The import kinds of the bulk fault suite (`tests/e2e/bulk_fault_suite_test.ts`), one value each: what it
 * needs in the catalog first, the CSV it imports (a few hundred rows, some the service refuses), the
 * command line that imports it, which requests are its writes (where the suite's scripted faults land), and
 * how often the store wrote each row: an entity's version (bumped on every write), else the emulator's
 * per-record write counts (`GET /_emulator/writes`, see `lib/emulator/write_counts.ts`).
 *
 * @module
 */
import { CatalogClient } from "../../lib/catalog/client.ts";
import { processQualifiedName } from "../../lib/catalog/lineage_builder.ts";
import { loadConfig } from "../../lib/config/config.ts";
import type { RunningEmulator } from "../../lib/emulator/mod.ts";
import { UnifiedCatalogClient } from "../../lib/catalog/unified_api.ts";

/** What a kind's import needs to run and be counted. */
export interface KindSetup {
  emulator: RunningEmulator;
  catalog: CatalogClient;
  unified: UnifiedCatalogClient;
  dir: string;
}

/** A prepared import: its command line, its rows, and how to count them in the store. */
export interface PreparedImport {
  /** govcat's arguments, the file included. */
  args: string[];
  /** The file imported (its checkpoint and reject file are beside it). */
  file: string;
  rows: number;
  /** Lines (1-based, the header is line 1) of the rows the service refuses. */
  badLines: number[];
  /** A key per valid row, in file order. */
  validKeys: string[];
  /** A key per bad row (never stored). */
  badKeys: string[];
  /** Writes the store made of each row it holds, by key (a key not there was never written). */
  writes(): Promise<Map<string, number>>;
}

/** One import kind of the suite. */
export interface FaultKind {
  name: string;
  /** The write requests, for scripted faults (a step matches a request whose path contains `path`). */
  write: { method: string; path: string };
  /** Batch size and concurrency: small batches, several in flight. */
  batchSize: number;
  concurrency: number;
  /** Scripted faults on the first writes (default 36; fewer for an import that sends one batch at a time). */
  faultedWrites?: number;
  /**
   * The writes answer 204 without a body: the emulator cannot cut such an answer off mid-body (a scripted
   * drop after the write becomes a 500, which reads as a refusal), so their answers are lost to 503s only.
   */
  emptyAnswers?: boolean;
  prepare(setup: KindSetup): Promise<PreparedImport>;
}

/** Clients of the emulator with short retry delays and no client-side rate limit. */
export function kindClients(
  emulator: RunningEmulator,
): { catalog: CatalogClient; unified: UnifiedCatalogClient } {
  const config = loadConfig({
    CATALOG_ACCOUNT_NAME: "emulator",
    CATALOG_ENDPOINT: emulator.url,
    CATALOG_UNIFIED_ENDPOINT: emulator.url,
    CATALOG_RATE_LIMIT: "0",
  });
  return {
    catalog: CatalogClient.fromConfig(config, { retryBaseMs: 5 }),
    unified: UnifiedCatalogClient.fromConfig(config, { retryBaseMs: 5 }),
  };
}

/** The emulator's write counts of `kind`, by record id. */
export async function writeCounts(emulator: RunningEmulator, kind: string): Promise<Map<string, number>> {
  const response = await fetch(`${emulator.url}/_emulator/writes?kind=${encodeURIComponent(kind)}`);
  const body = await response.json() as { counts: Record<string, number> };
  return new Map(Object.entries(body.counts));
}

/** Versions of stored entities of `typeName` by qualified name (an entity written once is version 0). */
async function versions(
  catalog: CatalogClient,
  typeName: string,
  names: string[],
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (let i = 0; i < names.length; i += 100) {
    const result = await catalog.entity.listByUniqueAttributes(typeName, names.slice(i, i + 100), {
      minExtInfo: true,
      ignoreRelationships: true,
    });
    for (const entity of result.entities ?? []) {
      found.set(String(entity.attributes?.qualifiedName), Number(entity.version));
    }
  }
  return found;
}

/** Creates DataSets named `names` (version 0 each) and returns their guids, in order. */
async function createDataSets(catalog: CatalogClient, names: string[]): Promise<string[]> {
  const guids: string[] = [];
  for (let i = 0; i < names.length; i += 100) {
    const chunk = names.slice(i, i + 100);
    const result = await catalog.entity.createOrUpdateMany(
      chunk.map((qualifiedName, k) => ({
        typeName: "DataSet",
        guid: `-${k + 1}`,
        attributes: { qualifiedName, name: qualifiedName.split("/").pop() },
      })),
    );
    chunk.forEach((_, k) => guids.push(String(result.guidAssignments?.[`-${k + 1}`])));
  }
  return guids;
}

export async function writeCsv(path: string, lines: string[]): Promise<string> {
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
  return path;
}

export const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** The file's keys split by whether the row is bad. */
export function split(keys: string[], bad: (i: number) => boolean) {
  const validKeys: string[] = [], badKeys: string[] = [], badLines: number[] = [];
  keys.forEach((key, i) => {
    if (bad(i)) {
      badKeys.push(key);
      badLines.push(i + 2);
    } else validKeys.push(key);
  });
  return { validKeys, badKeys, badLines };
}

/** `entity bulk-import`: DataSets; rows of an unknown type and rows with an attribute DataSet lacks are refused. */
const entities: FaultKind = {
  name: "entities",
  write: { method: "POST", path: "/entity/bulk" },
  batchSize: 10,
  concurrency: 4,
  async prepare({ catalog, dir }) {
    const rows = 240;
    const unknownType = (i: number) => i % 60 === 17;
    const badAttribute = (i: number) => i % 60 === 43;
    const keys = range(rows).map((i) => `ds://fault/entities/${i}`);
    const file = await writeCsv(`${dir}/entities.csv`, [
      "typeName,qualifiedName,displayName,attr.owner,attr.colour",
      ...range(rows).map((i) =>
        `${unknownType(i) ? "NoSuchType" : "DataSet"},${keys[i]},Set ${i},team-${i % 5},${
          badAttribute(i) ? "red" : ""
        }`
      ),
    ]);
    return {
      args: ["entity", "bulk-import", "--csv-file", file],
      file,
      rows,
      ...split(keys, (i) => unknownType(i) || badAttribute(i)),
      writes: async () => new Map([...await versions(catalog, "DataSet", keys)].map(([k, v]) => [k, v + 1])),
    };
  },
};

/** `entity bulk-update-csv`: descriptions of existing DataSets; rows naming no entity are refused. */
const bulkUpdate: FaultKind = {
  name: "bulk update",
  write: { method: "POST", path: "/entity/bulk" },
  batchSize: 10,
  concurrency: 4,
  async prepare({ catalog, dir }) {
    const rows = 200;
    const missing = (i: number) => i % 50 === 21;
    const keys = range(rows).map((i) =>
      missing(i) ? `ds://fault/update/missing-${i}` : `ds://fault/update/${i}`
    );
    await createDataSets(catalog, keys.filter((_, i) => !missing(i)));
    const file = await writeCsv(`${dir}/updates.csv`, [
      "typeName,qualifiedName,description",
      ...range(rows).map((i) => `DataSet,${keys[i]},Updated ${i}`),
    ]);
    return {
      args: ["entity", "bulk-update-csv", "--csv-file", file],
      file,
      rows,
      ...split(keys, missing),
      // Created at version 0: each update is one more.
      writes: () => versions(catalog, "DataSet", keys),
    };
  },
};

/**
 * `glossary import-terms --mode=batches`: terms of one glossary. No bad rows: what the service refuses in a
 * term (a name with '@', an unknown status) the template refuses first, before anything is sent.
 */
const glossaryTerms: FaultKind = {
  name: "glossary terms (batches)",
  write: { method: "POST", path: "/glossary/terms" },
  batchSize: 10,
  concurrency: 4,
  async prepare({ catalog, emulator, dir }) {
    const rows = 200;
    const glossary = (await catalog.glossary.create({ name: "Fault suite" })).guid!;
    const keys = range(rows).map((i) => `Fault term ${i}`);
    const file = await writeCsv(`${dir}/terms.csv`, [
      "name,description",
      ...range(rows).map((i) => `${keys[i]},Described ${i}`),
    ]);
    return {
      args: [
        "glossary",
        "import-terms",
        "--csv-file",
        file,
        "--glossary-guid",
        glossary,
        "--mode",
        "batches",
      ],
      file,
      rows,
      ...split(keys, () => false),
      writes: async () => {
        const counts = await writeCounts(emulator, "glossary-term");
        const headers = await catalog.glossary.listTermHeaders(glossary, { limit: 1000 });
        return new Map(headers.map((h) => [String(h.displayText), counts.get(String(h.termGuid)) ?? 0]));
      },
    };
  },
};

/** `glossary assign_terms`: four terms over DataSets; rows naming an entity that does not exist are refused. */
const termAssignments: FaultKind = {
  name: "term assignments",
  write: { method: "POST", path: "/assignedEntities" },
  batchSize: 10,
  concurrency: 4,
  emptyAnswers: true,
  async prepare({ catalog, emulator, dir }) {
    const rows = 200;
    const bad = (i: number) => i % 50 === 13;
    const glossary = (await catalog.glossary.create({ name: "Assignments" })).guid!;
    const terms: string[] = [];
    for (const name of ["Alpha", "Beta", "Gamma", "Delta"]) {
      terms.push((await catalog.glossary.createTerm({ name, anchor: { glossaryGuid: glossary } })).guid!);
    }
    const entityGuids = await createDataSets(catalog, range(rows).map((i) => `ds://fault/assign/${i}`));
    const pairs = range(rows).map((i) => [terms[i % 4], bad(i) ? crypto.randomUUID() : entityGuids[i]]);
    const file = await writeCsv(`${dir}/assignments.csv`, [
      "term_guid,entity_guid",
      ...pairs.map(([term, entity]) => `${term},${entity}`),
    ]);
    return {
      args: ["glossary", "assign_terms", "--csv-file", file],
      file,
      rows,
      ...split(pairs.map(([term, entity]) => `${term}|${entity}`), bad),
      writes: () => writeCounts(emulator, "term-assignment"),
    };
  },
};

/** `lineage import`: one process per row between DataSets; rows naming a missing source are refused. */
const lineage: FaultKind = {
  name: "lineage",
  write: { method: "POST", path: "/atlas/v2/entity" },
  batchSize: 10,
  concurrency: 4,
  async prepare({ catalog, dir }) {
    const rows = 150;
    const bad = (i: number) => i % 50 === 9;
    const sources = range(rows).map((i) => `ds://fault/lineage/src-${i}`);
    const targets = range(rows).map((i) => `ds://fault/lineage/dst-${i}`);
    const sourceGuids = await createDataSets(catalog, sources);
    const targetGuids = await createDataSets(catalog, targets);
    const end = (qualifiedName: string, guid: string) => ({ qualifiedName, guid, typeName: "DataSet" });
    const keys = range(rows).map((i) =>
      processQualifiedName([end(sources[i], sourceGuids[i])], [end(targets[i], targetGuids[i])], `proc_${i}`)
    );
    const file = await writeCsv(`${dir}/lineage.csv`, [
      "source_entity_guid,target_entity_guid,process_name",
      ...range(rows).map((i) =>
        `${bad(i) ? crypto.randomUUID() : sourceGuids[i]},${targetGuids[i]},proc_${i}`
      ),
    ]);
    return {
      args: ["lineage", "import", file],
      file,
      rows,
      ...split(keys, bad),
      writes: async () => new Map([...await versions(catalog, "Process", keys)].map(([k, v]) => [k, v + 1])),
    };
  },
};

/**
 * `collections import`: a two-level hierarchy, written parents first one batch at a time (the import is
 * sequential). No bad rows: every refusal the emulator knows (unknown parent, a friendly name twice under one
 * parent, a cycle) is found by the import's checks before anything is written.
 */
const collections: FaultKind = {
  name: "collections",
  write: { method: "PUT", path: "/collections/" },
  batchSize: 10,
  concurrency: 1,
  faultedWrites: 8,
  async prepare({ emulator, dir }) {
    const rows = 80;
    const keys = range(rows).map((i) => `fc-${i}`);
    const file = await writeCsv(`${dir}/collections.csv`, [
      "collection_name,friendly_name,parent_collection",
      ...range(rows).map((i) => `${keys[i]},Fault ${i},${i < 10 ? "" : keys[i % 10]}`),
    ]);
    return {
      args: ["collections", "import", "--csv-file", file],
      file,
      rows,
      ...split(keys, () => false),
      writes: () => writeCounts(emulator, "collection"),
    };
  },
};

/** `uc term import-csv`: terms of one domain; rows changing a term_id that does not exist are refused. */
const ucTerms: FaultKind = {
  name: "unified catalog terms",
  write: { method: "POST", path: "/terms" },
  batchSize: 10,
  concurrency: 4,
  async prepare({ unified, emulator, dir }) {
    const rows = 150;
    const bad = (i: number) => i % 50 === 11;
    const domain = (await unified.domains.create({ name: "Fault suite", type: "FunctionalUnit" })).id;
    const missing = range(rows).map(() => crypto.randomUUID());
    const keys = range(rows).map((i) => bad(i) ? missing[i] : `fault term ${i}`);
    const file = await writeCsv(`${dir}/uc_terms.csv`, [
      "term_id,name,description",
      ...range(rows).map((i) => bad(i) ? `${missing[i]},,Changed ${i}` : `,Fault term ${i},Described ${i}`),
    ]);
    return {
      args: [
        "uc",
        "term",
        "import-csv",
        "--csv-file",
        file,
        "--domain-id",
        domain,
        "--template",
        "uc-term-all-fields",
      ],
      file,
      rows,
      ...split(keys, bad),
      writes: async () => {
        const counts = await writeCounts(emulator, "uc-term");
        const found = new Map<string, number>();
        for await (const term of unified.terms.list({ domainId: domain })) {
          found.set(String(term.name).toLowerCase(), counts.get(String(term.id).toLowerCase()) ?? 0);
        }
        for (const id of missing) if (counts.has(id)) found.set(id, counts.get(id)!);
        return found;
      },
    };
  },
};

/** The kinds the engine imports, in the suite's order. */
export const ENGINE_KINDS: readonly FaultKind[] = [
  entities,
  bulkUpdate,
  glossaryTerms,
  termAssignments,
  lineage,
  collections,
  ucTerms,
];
