/**
 * The data quality rule (`RuleEntity` of the typed contract,
 * `rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.DataQuality/preview/2025-09-01-preview/purviewDataQuality.json`):
 * what a stored rule must look like. This is the one body of the area the contracts define, so it is checked
 * before anything is stored: `id` (a uuid), `name`, `type` and `status` are required non-empty strings;
 * `description` a string; `typeProperties.column` an object of strings `{type, value}`; `score` a number
 * from 0 to 100; the `businessDomain`, `dataProduct` and `dataAsset` references objects whose `referenceId`,
 * when given, is the id the path names (a rule cannot be filed under one asset while saying it is another's).
 * Fields the contract does not name are kept as sent. `createdAt`/`lastModifiedAt` are the emulator's.
 *
 * @module
 */
import { invalidField } from "./errors.ts";
import type { Doc } from "./store.ts";
import { GUID_PATTERN } from "../../core/guid.ts";

/** The asset a rule belongs to, as the path names it. */
export interface AssetScope {
  businessDomainId: string;
  dataProductId: string;
  dataAssetId: string;
}

const REQUIRED = ["id", "name", "type", "status"] as const;
const REFERENCES: Record<string, keyof AssetScope> = {
  businessDomain: "businessDomainId",
  dataProduct: "dataProductId",
  dataAsset: "dataAssetId",
};
const EXAMPLE = '{"id": "<uuid>", "name": "...", "type": "Completeness", "status": "Active", ' +
  '"typeProperties": {"column": {"type": "string", "value": "<column>"}}}';

/** Throws a 400 naming the first field of `value` that breaks the RuleEntity shape (`at` prefixes it). */
export function checkRuleEntity(value: unknown, scope: AssetScope, at = ""): Doc {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalidField(at || "body", `A rule must be a JSON object, e.g. ${EXAMPLE}.`);
  }
  const rule = value as Doc;
  for (const field of REQUIRED) {
    const v = rule[field];
    if (typeof v !== "string" || v.trim() === "") {
      throw invalidField(`${at}${field}`, `The rule's ${field} is required and must be a non-empty string.`);
    }
  }
  if (!GUID_PATTERN.test(String(rule.id))) {
    throw invalidField(`${at}id`, `The rule's id must be a uuid, got '${rule.id}'.`);
  }
  if (rule.description !== undefined && rule.description !== null && typeof rule.description !== "string") {
    throw invalidField(`${at}description`, "The rule's description must be a string.");
  }
  checkScore(rule.score, at);
  checkTypeProperties(rule.typeProperties, at);
  for (const [field, param] of Object.entries(REFERENCES)) {
    checkReference(rule[field], field, scope[param], at);
  }
  return rule;
}

function checkScore(score: unknown, at: string): void {
  if (score === undefined || score === null) return;
  if (typeof score !== "number" || !Number.isFinite(score) || score < 0 || score > 100) {
    throw invalidField(
      `${at}score`,
      `The rule's score must be a number from 0 to 100, got ${JSON.stringify(score)}.`,
    );
  }
}

function checkTypeProperties(value: unknown, at: string): void {
  if (value === undefined || value === null) return;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw invalidField(`${at}typeProperties`, "The rule's typeProperties must be an object.");
  }
  const column = (value as Doc).column;
  if (column === undefined || column === null) return;
  if (typeof column !== "object" || Array.isArray(column)) {
    throw invalidField(
      `${at}typeProperties.column`,
      'typeProperties.column must be an object {"type", "value"}.',
    );
  }
  for (const key of ["type", "value"]) {
    const v = (column as Doc)[key];
    if (v !== undefined && v !== null && typeof v !== "string") {
      throw invalidField(
        `${at}typeProperties.column.${key}`,
        `typeProperties.column.${key} must be a string.`,
      );
    }
  }
}

function checkReference(value: unknown, field: string, pathId: string, at: string): void {
  if (value === undefined || value === null) return;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw invalidField(`${at}${field}`, `The rule's ${field} must be an object {"type", "referenceId"}.`);
  }
  const referenceId = (value as Doc).referenceId;
  if (referenceId === undefined || referenceId === null) return;
  if (typeof referenceId !== "string" || referenceId.toLowerCase() !== pathId.toLowerCase()) {
    throw invalidField(
      `${at}${field}.referenceId`,
      `The rule's ${field}.referenceId '${referenceId}' is not the ${field} of the path ('${pathId}'); ` +
        "leave it out or make it match.",
    );
  }
}

/** The rule as stored: references filled from the path, the emulator's timestamps. */
export function storedRule(rule: Doc, scope: AssetScope, now: string, previous?: Doc): Doc {
  return {
    ...rule,
    businessDomain: { type: "BusinessDomain", referenceId: scope.businessDomainId },
    dataProduct: { type: "DataProduct", referenceId: scope.dataProductId },
    dataAsset: { type: "DataAsset", referenceId: scope.dataAssetId },
    createdAt: previous?.createdAt ?? now,
    lastModifiedAt: now,
  };
}
