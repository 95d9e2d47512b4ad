/**
 * How a data quality run judges an asset, the emulator's own deterministic stand-in for the service's
 * Spark jobs over the real data (which the emulator does not have). What it has is the catalog: the asset
 * is the catalog entity whose guid is the `dataAssetId`, and its columns are the column entities (type name
 * containing `column`) that point at it through a relationship attribute (e.g. `table`).
 *
 * Each rule names one field, `typeProperties.column.value`. Only rules whose `status` is `Active` (any case)
 * are evaluated; the others are reported as skipped. A rule passes when the field is complete:
 *
 * 1. a column of the asset with that name (case-insensitive) that declares a data type (`data_type` or
 *    `dataType` non-empty), or else
 * 2. an attribute of the asset with that name holding a value (not null, not an empty string or list).
 *
 * A column without a data type, an empty attribute or a name the asset does not have fails, with the reason
 * in the opinion's `value`. Each result scores 100 (passed) or 0 (failed); the asset's score is the mean of
 * its evaluated rules, rounded to one decimal, from 0 to 100 (none evaluated: no score). The same catalog
 * and rules always give the same score.
 *
 * @module
 */
import type { AtlasEntity } from "../entity/model.ts";
import type { Doc } from "./store.ts";

/** The result of one rule in one run. */
export interface RuleResult {
  ruleId: string;
  ruleName: string;
  field: string;
  result: "Passed" | "Failed" | "Skipped";
  /** 100 or 0; undefined when skipped. */
  score?: number;
  reason: string;
}

/** The results of a run over one asset. */
export interface Evaluation {
  results: RuleResult[];
  /** 0–100, one decimal; undefined when no rule was evaluated. */
  score?: number;
}

/** The columns of `asset` among `entities`: column entities that point at it. */
export function columnsOf(asset: AtlasEntity, entities: AtlasEntity[]): AtlasEntity[] {
  return entities.filter((entity) =>
    /column/i.test(entity.typeName) &&
    [entity.relationshipAttributes, entity.attributes].some((group) => pointsAt(group, asset.guid))
  );
}

function pointsAt(group: unknown, guid: string): boolean {
  if (!group || typeof group !== "object") return false;
  return Object.values(group as Doc).some((value) =>
    value !== null && typeof value === "object" && !Array.isArray(value) && (value as Doc).guid === guid
  );
}

/** Evaluates `rules` over the asset and its columns. */
export function evaluateRules(asset: AtlasEntity, columns: AtlasEntity[], rules: Doc[]): Evaluation {
  const results = rules.map((rule) => evaluateRule(asset, columns, rule));
  const scored = results.filter((r) => r.score !== undefined);
  const score = scored.length === 0
    ? undefined
    : Math.round(scored.reduce((sum, r) => sum + r.score!, 0) / scored.length * 10) / 10;
  return { results, score };
}

function evaluateRule(asset: AtlasEntity, columns: AtlasEntity[], rule: Doc): RuleResult {
  const field = String(((rule.typeProperties as Doc | undefined)?.column as Doc | undefined)?.value ?? "");
  const base = { ruleId: String(rule.id), ruleName: String(rule.name), field };
  if (String(rule.status).toLowerCase() !== "active") {
    return { ...base, result: "Skipped", reason: `rule status is ${rule.status}, not Active` };
  }
  if (field === "") {
    return {
      ...base,
      result: "Failed",
      score: 0,
      reason: "the rule names no field (typeProperties.column.value)",
    };
  }
  const column = columns.find((c) => String(c.attributes.name ?? "").toLowerCase() === field.toLowerCase());
  if (column) {
    const dataType = column.attributes.data_type ?? column.attributes.dataType;
    return hasValue(dataType)
      ? {
        ...base,
        result: "Passed",
        score: 100,
        reason: `column ${field} is present with data type ${dataType}`,
      }
      : { ...base, result: "Failed", score: 0, reason: `column ${field} declares no data type` };
  }
  if (field in asset.attributes) {
    return hasValue(asset.attributes[field])
      ? { ...base, result: "Passed", score: 100, reason: `attribute ${field} has a value` }
      : { ...base, result: "Failed", score: 0, reason: `attribute ${field} is empty` };
  }
  return {
    ...base,
    result: "Failed",
    score: 0,
    reason: `the asset has no column or attribute named ${field}`,
  };
}

function hasValue(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "string") return value.trim() !== "";
  if (Array.isArray(value)) return value.length > 0;
  return true;
}
