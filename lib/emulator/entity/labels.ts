/**
 * Labels of entities: `PUT` appends, `POST` replaces, `DELETE` removes, on
 * `/atlas/v2/entity/guid/{guid}/labels` and `/atlas/v2/entity/uniqueAttribute/type/{typeName}/labels`.
 * The body is a JSON array of label strings and is optional: no body (or an empty array) adds and removes
 * nothing and, for `POST`, removes every label, as the contract says. Labels are stored on the entity's
 * `labels` array without duplicates; each answer is 204.
 *
 * @example
 * ```ts
 * import { checkLabels } from "./labels.ts";
 * checkLabels(["finance", "gold_tier"]); // fine; "has space" would be a 400
 * ```
 *
 * @module
 */
import type { AreaDependencies } from "../area.ts";
import { entityByGuid, entityByUniqueAttribute, noContent, readOptionalJson } from "./lookup.ts";
import { type AtlasEntity, touchedEntity } from "./model.ts";
import { EmulatorError } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";

type LabelChange = (current: string[], given: string[]) => string[];

const append: LabelChange = (current, given) => [...new Set([...current, ...given])];
const replace: LabelChange = (_current, given) => [...new Set(given)];
const removeGiven: LabelChange = (current, given) => current.filter((label) => !given.includes(label));

/** The label routes, relative to the API prefix. */
export function labelRoutes(deps: AreaDependencies): RouteDefinition[] {
  const byGuid = (ctx: RouteContext) => entityByGuid(deps, ctx.params.guid);
  const byUnique = (ctx: RouteContext) => entityByUniqueAttribute(deps, ctx);
  const routes: RouteDefinition[] = [];
  for (
    const [path, find] of [
      ["/atlas/v2/entity/guid/{guid}/labels", byGuid],
      ["/atlas/v2/entity/uniqueAttribute/type/{typeName}/labels", byUnique],
    ] as const
  ) {
    routes.push(
      { method: "PUT", path, handler: (ctx) => changeLabels(deps, ctx, find, append) },
      { method: "POST", path, handler: (ctx) => changeLabels(deps, ctx, find, replace) },
      { method: "DELETE", path, handler: (ctx) => changeLabels(deps, ctx, find, removeGiven) },
    );
  }
  return routes;
}

async function changeLabels(
  deps: AreaDependencies,
  ctx: RouteContext,
  find: (ctx: RouteContext) => AtlasEntity,
  change: LabelChange,
): Promise<Response> {
  const entity = find(ctx);
  const body = await readOptionalJson(ctx);
  const given = body === undefined || body === null ? [] : body;
  if (!Array.isArray(given) || !given.every((label) => typeof label === "string")) {
    throw EmulatorError.badRequest("Request body must be a JSON array of label strings");
  }
  // Removing labels does not check them: unknown ones are ignored, as the contract says.
  if (change !== removeGiven) checkLabels(given);
  const current = entity.labels ?? [];
  const next = change(current, given);
  if (next.length === current.length && next.every((label, i) => label === current[i])) return noContent();
  deps.store.put(touchedEntity({ ...entity, labels: next }, deps.now()));
  return noContent();
}

/** Atlas's limit on one label's length (EntityGraphMapper.validateLabels). */
export const MAX_LABEL_LENGTH = 50;
const LABEL_PATTERN = /^[a-zA-Z0-9_-]+$/;

/**
 * Throws Atlas's 400 for a label that is too long (ATLAS-400-00-08F, INVALID_LABEL_LENGTH) or holds other
 * than letters, digits, `_` and `-` (ATLAS-400-00-090, INVALID_LABEL_CHARACTERS).
 */
export function checkLabels(labels: string[]): void {
  for (const label of labels) {
    if (label.length > MAX_LABEL_LENGTH) {
      throw new EmulatorError(
        400,
        "ATLAS-400-00-08F",
        `Invalid label: ${label}, label size should not be greater than ${MAX_LABEL_LENGTH}`,
      );
    }
    if (!LABEL_PATTERN.test(label)) {
      throw new EmulatorError(
        400,
        "ATLAS-400-00-090",
        `Invalid label: ${label}, label should contain alphanumeric characters, '_' or '-'`,
      );
    }
  }
}
