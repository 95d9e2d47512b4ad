/**
 * The generic `uc` commands of the unified catalog kinds — governance domains, data products, critical
 * data elements and objectives: `create`, `get`, `update`, `delete`, `list`, and where the API has them
 * `query`, `count` and `facets`. One {@link KindCommands} description per kind drives them all.
 *
 * @module
 */
import { withArticle } from "../core/articles.ts";
import { z, type ZodType } from "../deps/zod.ts";
import { guidField, guidListField } from "./guid_fields.ts";
import type { ListParams, UnifiedResource } from "../catalog/unified_resource.ts";
import { objectiveInputSchema } from "../catalog/unified_okr_schemas.ts";
import {
  criticalDataElementInputSchema,
  dataProductInputSchema,
} from "../catalog/unified_product_schemas.ts";
import { domainInputSchema } from "../catalog/unified_domain_schemas.ts";
import {
  compact,
  deletedResult,
  idOption,
  overlay,
  ownerIdOption,
  pagingOptions,
  payloadObject,
  precheck,
  requireField,
  requireSomething,
  unifiedPayloadFile,
} from "./unified_inputs.ts";
import {
  CREATE,
  defineOperation,
  DELETE,
  type Operation,
  type OperationContext,
  READ,
  UPSERT,
} from "./types.ts";

type Input = Record<string, unknown>;
// deno-lint-ignore no-explicit-any
type AnyResource = UnifiedResource<any, any>;

/** How the commands of one kind are built. */
export interface KindCommands {
  /** The word after `uc`: `domain`, `dataproduct`, `cde`, `objective`. */
  word: string;
  /** Human name: "governance domain". */
  label: string;
  /** The option naming one entity (`domainId` → `--domain-id`). */
  idField: string;
  api(ctx: OperationContext): AnyResource;
  inputSchema: ZodType;
  /** Options of create and update besides --owner-id and --payload-file. */
  fields: z.ZodRawShape;
  /** Body fields from those options (undefined ones are dropped). */
  toBody(input: Input): Input;
  /** Body fields create needs, with the option that gives each. */
  required: Array<[string, string]>;
  /** Options of list besides --top and --skip. */
  listFields: z.ZodRawShape;
  searches: boolean;
  facets: boolean;
  /** The field the count's duplicate check names instead of `nameKeyword` (objectives: `definition`). */
  countNameField?: string;
}

const str = (value: unknown) => value as string | undefined;
const status = (what: string) => z.string().optional().describe(`${what} (any letter case)`);
const domainIdOption = guidField("Id of the governance domain").optional();
const keywordOption = z.string().optional().describe("Only those whose name contains this");

function flags(shape: z.ZodRawShape): string {
  return Object.keys(shape).map((name) => `--${name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase()}`)
    .join(", ");
}

/** The list: every page, or only the first when --top or --skip is given. */
export async function listEntities(
  resource: {
    list(params: ListParams): AsyncGenerator<unknown>;
    listPage(params: ListParams): Promise<unknown>;
  },
  params: Input,
  signal?: AbortSignal,
): Promise<unknown> {
  const query = compact(params) as ListParams;
  if (query.top !== undefined || query.skip !== undefined) {
    return await resource.listPage({ ...query, signal } as ListParams);
  }
  const all: unknown[] = [];
  for await (const entity of resource.list({ ...query, signal } as ListParams)) all.push(entity);
  return all;
}

/** The filter fields shared by query, count and facets. */
export const searchFields = {
  domainId: guidListField("Only entities of this domain").optional(),
  keyword: keywordOption,
  status: z.array(z.string()).optional().describe("Only entities with this status (any case)"),
  ownerId: z.array(z.string()).optional().describe("Only entities owned by this Entra object ID"),
};

/** A query body: the payload file with the filter options laid over it. */
export async function searchBody(ctx: OperationContext, input: Input, extra: Input = {}): Promise<Input> {
  const payload = await payloadObject(ctx, str(input.payloadFile), "a query body (filters) as a JSON object");
  const statuses = input.status as string[] | undefined;
  return {
    ...payload,
    ...compact({
      domainIds: (input.domainId as string[] | undefined)?.length ? input.domainId : undefined,
      nameKeyword: input.keyword,
      status: statuses?.length === 1 ? statuses[0] : undefined,
      multiStatus: statuses && statuses.length > 1 ? statuses : undefined,
      owners: (input.ownerId as string[] | undefined)?.length ? input.ownerId : undefined,
      top: input.top,
      skip: input.skip,
      ...extra,
    }),
  };
}

/** `create`, `get`, `update`, `delete`, `list` and the searches of one kind. */
export function kindOperations(kind: KindCommands): Operation[] {
  return [
    kindCreate(kind),
    kindGet(kind),
    kindUpdate(kind),
    kindDelete(kind),
    kindList(kind),
    ...(kind.searches ? kindSearches(kind) : []),
    ...(kind.facets ? [facetsOperation(kind.word, kind.label, kind.api)] : []),
  ];
}

/** `uc <kind> create`: from options and/or a payload file. */
function kindCreate(kind: KindCommands): Operation {
  const { word, label } = kind;
  const aLabel = withArticle(label);
  const updateFlags = `${flags(kind.fields)}, --owner-id`;
  return defineOperation({
    id: `uc.${word}-create`,
    group: "uc",
    command: `${word} create`,
    summary: `Create ${aLabel}`,
    description: `Give the fields as options (${updateFlags}) and/or a --payload-file with the ${label} ` +
      "as JSON; options override the file. Owners are Entra ID object IDs, never e-mail addresses.",
    input: z.object({ ...kind.fields, ownerId: ownerIdOption, payloadFile: unifiedPayloadFile }),
    annotations: CREATE,
    run: async (ctx, input: Input) => {
      const payload = await payloadObject(ctx, str(input.payloadFile), `${aLabel} as a JSON object`);
      const body = overlay(payload, kind.toBody(input), input.ownerId as string[] | undefined);
      for (const [field, option] of kind.required) requireField(body, field, option, `uc ${word} create`);
      return await kind.api(ctx).create(body, { signal: ctx.signal });
    },
  });
}

/** `uc <kind> get`: one by id. */
function kindGet(kind: KindCommands): Operation {
  const { word, label, idField } = kind;
  const aLabel = withArticle(label);
  const idShape = { [idField]: idOption(`Id of the ${label}`) };
  return defineOperation({
    id: `uc.${word}-get`,
    group: "uc",
    command: `${word} get`,
    summary: `Read ${aLabel} by id`,
    input: z.object(idShape),
    annotations: READ,
    run: async (ctx, input: Input) => await kind.api(ctx).get(String(input[idField]), { signal: ctx.signal }),
  });
}

/** `uc <kind> update`: options laid over the stored one, or a payload file that replaces it. */
function kindUpdate(kind: KindCommands): Operation {
  const { word, label, idField } = kind;
  const aLabel = withArticle(label);
  const idShape = { [idField]: idOption(`Id of the ${label}`) };
  const updateFlags = `${flags(kind.fields)}, --owner-id`;
  return defineOperation({
    id: `uc.${word}-update`,
    group: "uc",
    command: `${word} update`,
    summary: `Update ${aLabel}`,
    description: `Without --payload-file, the ${label} is read and the options given (${updateFlags}) ` +
      `are laid over it, so other fields stay. With --payload-file, the file (with the options over it) ` +
      `replaces the ${label}.`,
    input: z.object({ ...idShape, ...kind.fields, ownerId: ownerIdOption, payloadFile: unifiedPayloadFile }),
    annotations: { ...UPSERT, destructive: true },
    run: async (ctx, input: Input) => {
      const payload = await payloadObject(ctx, str(input.payloadFile), `${aLabel} as a JSON object`);
      const body = overlay(payload, kind.toBody(input), input.ownerId as string[] | undefined);
      requireSomething(body, `uc ${word} update`, updateFlags);
      precheck(kind.inputSchema, body, `${label} update`);
      return await kind.api(ctx).update(String(input[idField]), body, {
        merge: !input.payloadFile,
        signal: ctx.signal,
      });
    },
  });
}

/** `uc <kind> delete`: one by id. */
function kindDelete(kind: KindCommands): Operation {
  const { word, label, idField } = kind;
  const aLabel = withArticle(label);
  const idShape = { [idField]: idOption(`Id of the ${label}`) };
  return defineOperation({
    id: `uc.${word}-delete`,
    group: "uc",
    command: `${word} delete`,
    summary: `Delete ${aLabel}`,
    input: z.object(idShape),
    annotations: DELETE,
    run: async (ctx, input: Input) => {
      const id = String(input[idField]);
      await kind.api(ctx).delete(id, { signal: ctx.signal });
      return deletedResult(label, id);
    },
  });
}

/** `uc <kind> list`: every page unless --top or --skip. */
function kindList(kind: KindCommands): Operation {
  const { word, label } = kind;
  return defineOperation({
    id: `uc.${word}-list`,
    group: "uc",
    command: `${word} list`,
    summary: `List ${label}s (every page unless --top or --skip)`,
    input: z.object({ ...kind.listFields, ...pagingOptions }),
    annotations: READ,
    run: async (ctx, input: Input) => await listEntities(kind.api(ctx), input, ctx.signal),
  });
}

/** `uc <kind> query` and `count`: filters as options and/or a payload file with the query body. */
function kindSearches(kind: KindCommands): Operation[] {
  const { word, label } = kind;
  const searchInput = z.object({
    ...searchFields,
    ...pagingOptions,
    payloadFile: unifiedPayloadFile.describe("JSON file with a query body (ids, domainIds, orderby, ...)"),
  });
  return [
    defineOperation({
      id: `uc.${word}-query`,
      group: "uc",
      command: `${word} query`,
      summary: `Find ${label}s by filters (domain, keyword, status, owner)`,
      description: "Filters as options and/or a --payload-file with the JSON query body " +
        "({ids, domainIds, nameKeyword, owners, status, multiStatus, orderby, skip, top}); options win.",
      input: searchInput,
      annotations: READ,
      run: async (ctx, input: Input) =>
        await kind.api(ctx).query(await searchBody(ctx, input), { signal: ctx.signal }),
    }),
    defineOperation({
      id: `uc.${word}-count`,
      group: "uc",
      command: `${word} count`,
      summary: `Count the ${label}s matching filters`,
      input: searchInput,
      annotations: READ,
      run: async (ctx, input: Input) => {
        const body = await searchBody(ctx, input);
        if (kind.countNameField && body.nameKeyword !== undefined) {
          body[kind.countNameField] = body.nameKeyword;
          delete body.nameKeyword;
        }
        return await kind.api(ctx).count(body, { signal: ctx.signal });
      },
    }),
  ];
}

/** `uc <kind> facets`: counts per value of status, domain, ... of the matching entities. */
export function facetsOperation(word: string, label: string, api: (ctx: OperationContext) => AnyResource) {
  return defineOperation({
    id: `uc.${word}-facets`,
    group: "uc",
    command: `${word} facets`,
    summary: `Counts of ${label}s per status, domain and other facets`,
    input: z.object({
      domainId: searchFields.domainId,
      status: searchFields.status,
      facet: z.array(z.string()).optional().describe("A facet to count (status, domainId, ...)"),
      payloadFile: unifiedPayloadFile.describe("JSON file with a facets body (filters and facets)"),
    }),
    annotations: READ,
    run: async (ctx, input: Input) => {
      const facets = (input.facet as string[] | undefined)?.map((name) => ({ name }));
      const body = await searchBody(ctx, input, { facets: facets?.length ? facets : undefined });
      return await api(ctx).facets(body, { signal: ctx.signal });
    },
  });
}

const commonFields = {
  name: z.string().optional().describe("Name"),
  description: z.string().optional().describe("Description"),
};

export const DOMAIN_COMMANDS: KindCommands = {
  word: "domain",
  label: "governance domain",
  idField: "domainId",
  api: (ctx) => ctx.unified().domains,
  inputSchema: domainInputSchema,
  fields: {
    ...commonFields,
    type: z.string().optional().describe(
      "FunctionalUnit, LineOfBusiness, DataDomain, Regulatory or Project (any case)",
    ),
    status: status("DRAFT, PUBLISHED or EXPIRED"),
    parentId: guidField("Id of the parent domain").optional(),
  },
  toBody: (i) => ({
    name: i.name,
    description: i.description,
    type: i.type,
    status: i.status,
    parentId: i.parentId,
  }),
  required: [["name", "--name"]],
  listFields: {},
  searches: false,
  facets: false,
};

export const DATA_PRODUCT_COMMANDS: KindCommands = {
  word: "dataproduct",
  label: "data product",
  idField: "dataProductId",
  api: (ctx) => ctx.unified().dataProducts,
  inputSchema: dataProductInputSchema,
  fields: {
    ...commonFields,
    domainId: domainIdOption,
    type: z.string().optional().describe("Master, Reference, Analytical, Operational, ... (any case)"),
    status: status("DRAFT, PUBLISHED or EXPIRED"),
    businessUse: z.string().optional().describe("What the data product is used for"),
    updateFrequency: z.string().optional().describe("Hourly, Daily, Weekly, Monthly, Quarterly or Yearly"),
    audience: z.array(z.string()).optional().describe("An audience: DataEngineer, DataAnalyst, ..."),
    endorsed: z.boolean().optional().describe("Mark the data product endorsed"),
  },
  toBody: (i) => ({
    name: i.name,
    description: i.description,
    domain: i.domainId,
    type: i.type,
    status: i.status,
    businessUse: i.businessUse,
    updateFrequency: i.updateFrequency,
    audience: (i.audience as string[] | undefined)?.length ? i.audience : undefined,
    endorsed: i.endorsed,
  }),
  required: [["name", "--name"], ["domain", "--domain-id"]],
  listFields: { domainId: domainIdOption },
  searches: true,
  facets: true,
};

export const CDE_COMMANDS: KindCommands = {
  word: "cde",
  label: "critical data element",
  idField: "cdeId",
  api: (ctx) => ctx.unified().criticalDataElements,
  inputSchema: criticalDataElementInputSchema,
  fields: {
    ...commonFields,
    domainId: domainIdOption,
    status: status("DRAFT, PUBLISHED or EXPIRED"),
    dataType: z.string().optional().describe("TEXT, NUMBER, DATETIME or BOOLEAN (any case)"),
  },
  toBody: (i) => ({
    name: i.name,
    description: i.description,
    domain: i.domainId,
    status: i.status,
    dataType: i.dataType,
  }),
  required: [["name", "--name"], ["domain", "--domain-id"]],
  listFields: { domainId: domainIdOption, keyword: keywordOption },
  searches: true,
  facets: true,
};

export const OBJECTIVE_COMMANDS: KindCommands = {
  word: "objective",
  label: "objective",
  idField: "objectiveId",
  api: (ctx) => ctx.unified().objectives,
  inputSchema: objectiveInputSchema,
  fields: {
    definition: z.string().optional().describe("What the objective is"),
    domainId: domainIdOption,
    status: status("Draft, Published or Closed"),
    targetDate: z.string().optional().describe("ISO 8601 date-time it is due"),
  },
  toBody: (i) => ({
    definition: i.definition,
    domain: i.domainId,
    status: i.status,
    targetDate: i.targetDate,
  }),
  required: [["definition", "--definition"], ["domain", "--domain-id"]],
  listFields: { domainId: domainIdOption, keyword: keywordOption },
  searches: true,
  facets: true,
  // The duplicate check of objectives compares definitions: `{"definition": ...}`.
  countNameField: "definition",
};
