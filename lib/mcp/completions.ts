/**
 * MCP completions: `completion/complete` for the arguments that take catalog names
 * — the prompts' arguments (entity type, business metadata, collection, glossary and domain names) and
 * the resource templates' variables (`govcat://typedefs/{name}`, `govcat://templates/{name}`). Values
 * are the names that start with what the user typed (any letter case), sorted, at most
 * {@link MAX_COMPLETIONS}, with `total` and `hasMore`. Names come from the catalog at each request;
 * arguments with nothing to offer (a GUID, free text) complete to nothing.
 *
 * @example
 * ```ts
 * import { matchingNames } from "./completions.ts";
 * console.log(matchingNames(["finance", "finance-eu", "sales"], "FIN")); // finance, finance-eu
 * ```
 *
 * @module
 */
import type { AtlasTypeDefHeader } from "../catalog/types_definitions.ts";
import {
  type CompleteRequest,
  CompleteRequestSchema,
  type CompleteResult,
  ErrorCode,
  type Server,
} from "../deps/mcp_sdk.ts";
import { redactSecrets } from "../core/log.ts";
import { allTemplateNames } from "../operations/template_operations.ts";
import { findPrompt, type NameKind } from "./prompts.ts";
import type { ToolServices } from "./tool.ts";
import { describeError } from "./tool_result.ts";
import { listParams } from "./tools/unified_common.ts";
import { protocolError } from "./protocol_errors.ts";

/** The most values one answer holds (the MCP limit). */
export const MAX_COMPLETIONS = 100;
/** The most names read from the catalog for one answer (collections, glossaries, domains). */
export const MAX_SCANNED_NAMES = 10_000;

/** The names a resource template's variable takes. */
const TEMPLATE_VARIABLES: Record<string, Record<string, NameKind | undefined>> = {
  "govcat://typedefs/{name}": { name: "typedef" },
  "govcat://templates/{name}": { name: "template" },
  "govcat://entity/{guid}": { guid: undefined },
  "govcat://glossary/term/{guid}": { guid: undefined },
};

const invalidParams = (message: string) => protocolError(ErrorCode.InvalidParams, message);

/** The names of `names` that start with `prefix` (any letter case), sorted and bounded. */
export function matchingNames(names: Iterable<string>, prefix: string): CompleteResult["completion"] {
  const wanted = prefix.toLowerCase();
  const matches = [...new Set(names)].filter((name) => name.toLowerCase().startsWith(wanted))
    .sort((a, b) => a.localeCompare(b));
  return {
    values: matches.slice(0, MAX_COMPLETIONS),
    total: matches.length,
    hasMore: matches.length > MAX_COMPLETIONS,
  };
}

async function typeNames(services: ToolServices, signal: AbortSignal, category?: string): Promise<string[]> {
  const headers: AtlasTypeDefHeader[] = await services.catalog().types.listHeaders({
    // The list API has no business-metadata filter: those come from the unfiltered list.
    type: category === "ENTITY" ? "ENTITY" : undefined,
    signal,
  });
  return headers.filter((h) => category === undefined || h.category === category)
    .map((h) => String(h.name ?? "")).filter((name) => name !== "");
}

async function collected<T>(
  items: AsyncIterable<T>,
  name: (item: T) => string | undefined,
): Promise<string[]> {
  const names: string[] = [];
  for await (const item of items) {
    const value = name(item);
    if (value) names.push(value);
    if (names.length >= MAX_SCANNED_NAMES) break;
  }
  return names;
}

/** Every name of one kind, read from the catalog (templates are govcat's own). */
async function namesOf(kind: NameKind, services: ToolServices, signal: AbortSignal): Promise<string[]> {
  switch (kind) {
    case "type":
      return await typeNames(services, signal, "ENTITY");
    case "typedef":
      return await typeNames(services, signal);
    case "business_metadata":
      return await typeNames(services, signal, "BUSINESS_METADATA");
    case "collection":
      return await collected(services.catalog().collections.list({ signal }), (c) => c.name);
    case "glossary":
      return (await services.catalog().glossary.list({ signal, ignoreTermsAndCategories: true }))
        .map((g) => String(g.name ?? "")).filter((name) => name !== "");
    case "domain":
      return await collected(
        services.unified().domains.list(listParams({}, signal)),
        (d) => d.name,
      );
    case "template":
      return allTemplateNames();
  }
}

/** Which names an argument of a completion request takes; undefined when it takes none. */
function kindOf(ref: CompleteRequest["params"]["ref"], argument: string): NameKind | undefined {
  if (ref.type === "ref/prompt") {
    const prompt = findPrompt(ref.name);
    if (!prompt) throw invalidParams(`Unknown prompt: ${ref.name}; prompts/list names every prompt.`);
    const arg = prompt.arguments.find((a) => a.name === argument);
    if (!arg) {
      throw invalidParams(
        `Prompt ${ref.name} has no argument ${argument}; it takes ${
          prompt.arguments.map((a) => a.name).join(", ")
        }.`,
      );
    }
    return arg.completes;
  }
  const variables = TEMPLATE_VARIABLES[ref.uri];
  if (!variables) {
    throw invalidParams(
      `Unknown resource template: ${ref.uri}; resources/templates/list names every template.`,
    );
  }
  if (!(argument in variables)) {
    throw invalidParams(
      `${ref.uri} has no variable ${argument}; it has ${Object.keys(variables).join(", ")}.`,
    );
  }
  return variables[argument];
}

/** The answer to one completion/complete request. */
export async function complete(
  services: ToolServices,
  params: CompleteRequest["params"],
  signal: AbortSignal,
): Promise<CompleteResult> {
  const kind = kindOf(params.ref, params.argument.name);
  if (kind === undefined) return { completion: { values: [], total: 0, hasMore: false } };
  try {
    return { completion: matchingNames(await namesOf(kind, services, signal), params.argument.value) };
  } catch (error) {
    const body = describeError(error);
    const config = services.config();
    const secrets = [config.clientSecret, config.mcpAuthToken].filter((s): s is string =>
      !!s && s.length >= 6
    );
    const status = body.status ? ` (${body.status}${body.code ? ` ${body.code}` : ""})` : "";
    throw Object.assign(
      new Error(
        redactSecrets(
          `Completing ${params.argument.name} failed${status}: ${body.message}${
            body.hint ? ` ${body.hint}` : ""
          }`,
          secrets,
        ),
      ),
      { code: ErrorCode.InternalError },
    );
  }
}

/** The `completions` capability. */
export const COMPLETIONS_CAPABILITY = {};

/** Answers completion/complete on `server` (which declares {@link COMPLETIONS_CAPABILITY}). */
export function registerCompletions(server: Server, services: ToolServices): void {
  server.setRequestHandler(
    CompleteRequestSchema,
    (request, extra) => complete(services, request.params, extra.signal),
  );
}
