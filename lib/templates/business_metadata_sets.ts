/**
 * The five business metadata attribute sets govcat ships as templates: universal,
 * governance, privacy, quality and data product. Each is a ready `AtlasTypesDef` payload for
 * `govcat types createTypeDefs --payload-file`, in the shape Purview expects: attributes typed with Atlas
 * primitives (or an enum defined alongside), `applicableEntityTypes` as a JSON array in a string option,
 * and a `maxStrLength` on every string.
 *
 * @example
 * ```ts
 * import { businessMetadataTemplate } from "./business_metadata_sets.ts";
 * const payload = businessMetadataTemplate("privacy");
 * console.log(payload?.businessMetadataDefs?.[0].name); // "Privacy"
 * ```
 *
 * @module
 */
import type { AtlasAttributeDef, AtlasTypesDef } from "../catalog/types_definitions.ts";

export interface BusinessMetadataTemplate {
  /** The name `--name` takes: universal, governance, privacy, quality or data-product. */
  name: string;
  summary: string;
  /** The typedef payload, as createTypeDefs takes it. */
  payload: AtlasTypesDef;
}

/** The entity types every set applies to: data assets and the processes that move them. */
const ASSETS = JSON.stringify(["DataSet", "Process"]);
const DATA_SETS = JSON.stringify(["DataSet"]);

function attribute(
  name: string,
  typeName: string,
  description: string,
  applicableEntityTypes: string,
  extra: Partial<AtlasAttributeDef> = {},
): AtlasAttributeDef {
  const multiple = typeName.startsWith("array<");
  const options: Record<string, string> = { applicableEntityTypes };
  if (typeName === "string" || typeName === "array<string>") options.maxStrLength = "256";
  return {
    name,
    typeName,
    description,
    isOptional: true,
    isUnique: false,
    isIndexable: true,
    cardinality: multiple ? "SET" : "SINGLE",
    ...extra,
    options: { ...options, ...extra.options },
  };
}

function group(name: string, description: string, attributeDefs: AtlasAttributeDef[]) {
  return { name, description, attributeDefs };
}

const TEMPLATES: ReadonlyArray<BusinessMetadataTemplate> = [
  {
    name: "universal",
    summary: "Generic descriptive attributes useful on any asset",
    payload: {
      businessMetadataDefs: [
        group("Universal", "Descriptive attributes useful on any data asset or process.", [
          attribute("businessName", "string", "Name of the asset in business terms", ASSETS),
          attribute(
            "businessDescription",
            "string",
            "What the asset holds or does, for business users",
            ASSETS,
            {
              options: { maxStrLength: "1000" },
            },
          ),
          attribute("sourceSystem", "string", "System the data originates from", ASSETS),
          attribute("contactEmail", "string", "Mailbox for questions about the asset", ASSETS),
          attribute("tags", "array<string>", "Free-form keywords", ASSETS),
        ]),
      ],
    },
  },
  {
    name: "governance",
    summary: "Ownership, stewardship, retention and review",
    payload: {
      businessMetadataDefs: [group("Governance", "Who is accountable for the asset and how it is kept.", [
        attribute("dataOwner", "string", "Person or team accountable for the data", ASSETS),
        attribute("dataSteward", "string", "Person who looks after the data day to day", ASSETS),
        attribute("retentionPeriodDays", "int", "How many days the data is kept", DATA_SETS),
        attribute("lastReviewed", "date", "When ownership and retention were last reviewed", ASSETS),
        attribute("reviewCycleDays", "int", "Days between reviews", ASSETS),
      ])],
    },
  },
  {
    name: "privacy",
    summary: "Personal data, its categories and the lawful basis for processing",
    payload: {
      enumDefs: [{
        name: "PrivacyLawfulBasis",
        description: "Lawful bases for processing personal data (GDPR article 6).",
        elementDefs: [
          "consent",
          "contract",
          "legal_obligation",
          "vital_interests",
          "public_task",
          "legitimate_interests",
        ].map((value, ordinal) => ({ value, ordinal })),
      }],
      businessMetadataDefs: [group("Privacy", "Whether the asset holds personal data and on what basis.", [
        attribute("containsPII", "boolean", "The asset holds personally identifiable information", DATA_SETS),
        attribute(
          "piiCategories",
          "array<string>",
          "Kinds of personal data held, e.g. email, address, health",
          DATA_SETS,
        ),
        attribute("lawfulBasis", "PrivacyLawfulBasis", "Lawful basis for processing the data", DATA_SETS),
        attribute(
          "dataSubjectRegions",
          "array<string>",
          "Regions whose residents the data is about",
          DATA_SETS,
        ),
        attribute("privacyReviewDate", "date", "When the privacy assessment was last done", DATA_SETS),
      ])],
    },
  },
  {
    name: "quality",
    summary: "Quality score, completeness and profiling",
    payload: {
      businessMetadataDefs: [group("Quality", "Measured quality of the data.", [
        attribute("qualityScore", "double", "Overall quality from 0 (worst) to 1 (best)", DATA_SETS),
        attribute("completeness", "double", "Share of required values present, from 0 to 1", DATA_SETS),
        attribute("lastProfiled", "date", "When the data was last profiled", DATA_SETS),
        attribute("openIssues", "int", "Known quality issues not yet resolved", DATA_SETS),
        attribute("qualityRulesUrl", "string", "Where the quality rules are documented", DATA_SETS),
      ])],
    },
  },
  {
    name: "data-product",
    summary: "Data product name, owner, domain and service level",
    payload: {
      businessMetadataDefs: [group("DataProduct", "The data product the asset belongs to.", [
        attribute("productName", "string", "Name of the data product", DATA_SETS),
        attribute("productOwner", "string", "Person accountable for the data product", DATA_SETS),
        attribute("domain", "string", "Business domain that publishes the product", DATA_SETS),
        attribute(
          "sla",
          "string",
          "Service level, e.g. refreshed daily by 06:00 UTC, 99.5% available",
          DATA_SETS,
        ),
        attribute("productVersion", "string", "Version of the product's published interface", DATA_SETS),
      ])],
    },
  },
];

/** Every template name, as `--name` takes it. */
export const BUSINESS_METADATA_TEMPLATE_NAMES: ReadonlyArray<string> = TEMPLATES.map((t) => t.name);

/** `Data Product`, `data_product`, `dataProduct` and `data-product` all name the same template. */
function normalize(name: string): string {
  return name.toLowerCase().replace(/[\s_-]/g, "");
}

/** All templates (copies, safe to change). */
export function businessMetadataTemplates(): BusinessMetadataTemplate[] {
  return structuredClone(TEMPLATES) as BusinessMetadataTemplate[];
}

/** The payload of one template by name, or undefined for an unknown name. */
export function businessMetadataTemplate(name: string): AtlasTypesDef | undefined {
  const found = TEMPLATES.find((t) => normalize(t.name) === normalize(name));
  return found ? structuredClone(found.payload) : undefined;
}
