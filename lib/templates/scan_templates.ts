/**
 * JSON payload templates of the scanning API: a scan source (data source), a scan, a scan
 * trigger and a classification rule. Values in angle brackets (`<collection-name>`) are placeholders to
 * replace; the payload checks of the `scan` commands refuse a file that still has one.
 *
 * @example
 * ```ts
 * import { scanTemplate, SCAN_TEMPLATE_NAMES } from "./scan_templates.ts";
 * console.log(SCAN_TEMPLATE_NAMES); // ["scan-source", "scan", "scan-trigger", "classification-rule"]
 * console.log(scanTemplate("scan-source")?.payload.kind); // "AzureSqlDatabase"
 * ```
 *
 * @module
 */

/** One template: what it is for, the command that takes it, and the payload. */
export interface ScanTemplate {
  name: string;
  summary: string;
  /** The govcat command (or API call) the payload is written for. */
  usage: string;
  payload: Record<string, unknown>;
}

const COLLECTION = { referenceName: "<collection-name>", type: "CollectionReference" };

const TEMPLATES: readonly ScanTemplate[] = [
  {
    name: "scan-source",
    summary: "A data source to register: an Azure SQL database server, in a collection",
    usage: "govcat scan putDataSource --data-source-name <name> --payload-file <file>",
    payload: {
      kind: "AzureSqlDatabase",
      properties: {
        serverEndpoint: "<server-name>.database.windows.net",
        collection: COLLECTION,
      },
    },
  },
  {
    name: "scan",
    summary: "A scan of an Azure SQL database with the account's managed identity and the system rule set",
    usage: "govcat scan putScan --data-source-name <name> --scan-name <scan> --payload-file <file>",
    payload: {
      kind: "AzureSqlDatabaseMsi",
      properties: {
        serverEndpoint: "<server-name>.database.windows.net",
        databaseName: "<database-name>",
        scanRulesetName: "AzureSqlDatabase",
        scanRulesetType: "System",
        collection: COLLECTION,
      },
    },
  },
  {
    name: "scan-trigger",
    summary: "A weekly incremental schedule for a scan (Mondays at 02:00 UTC)",
    usage: "govcat scan putTrigger --data-source-name <name> --scan-name <scan> --payload-file <file>",
    payload: {
      properties: {
        scanLevel: "Incremental",
        state: "Enabled",
        recurrence: {
          frequency: "Week",
          interval: 1,
          startTime: "2025-01-06T02:00:00Z",
          timeZone: "UTC",
          schedule: { weekDays: ["Monday"], hours: [2], minutes: [0] },
        },
      },
    },
  },
  {
    name: "classification-rule",
    summary: "A custom classification rule matching column names and values by regular expression",
    usage: "govcat scan putClassificationRule --classification-rule-name <name> --payload-file <file>",
    payload: {
      kind: "Custom",
      properties: {
        classificationName: "<classification-name>",
        description: "Employee identifiers such as E123456",
        ruleStatus: "Enabled",
        minimumPercentageMatch: 60,
        columnPatterns: [{ kind: "Regex", pattern: "^(employee|emp)_?id$" }],
        dataPatterns: [{ kind: "Regex", pattern: "^E[0-9]{6}$" }],
      },
    },
  },
];

/** Names of the templates, in the order `scan templates` lists them. */
export const SCAN_TEMPLATE_NAMES: readonly string[] = TEMPLATES.map((t) => t.name);

/** Every template, each with a fresh copy of its payload. */
export function scanTemplates(): ScanTemplate[] {
  return TEMPLATES.map((t) => ({ ...t, payload: structuredClone(t.payload) }));
}

/** One template by name (any case), with a fresh copy of its payload; undefined when unknown. */
export function scanTemplate(name: string): ScanTemplate | undefined {
  return scanTemplates().find((t) => t.name === name.toLowerCase());
}

/** The first `<placeholder>` a payload still holds, with the path of the value, or undefined. */
export function findPlaceholder(
  value: unknown,
  path = "",
): { path: string; placeholder: string } | undefined {
  if (typeof value === "string") {
    const match = /<[a-z][a-z0-9-]*>/i.exec(value);
    return match ? { path: path || "(top level)", placeholder: match[0] } : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findPlaceholder(value[i], `${path}[${i}]`);
      if (found) return found;
    }
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const found = findPlaceholder(item, path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return undefined;
}
