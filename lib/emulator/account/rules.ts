/**
 * The account's resource set rule configuration (`/account/resourceSetRuleConfigs/defaultResourceSetRuleConfig`)
 * as the account contract describes it (`ResourceSetRuleConfig`): what a PUT must hold, and what is stored
 * and answered. The contract's required fields are checked (`pathPatternConfig.enableDefaultPatterns` and
 * `createdBy`; `name` and `path` of each accepted or rejected pattern; `name` and `disabled` of each regex
 * replacer), with the types of the fields the emulator reads; other fields are kept as sent.
 *
 * @example
 * ```ts
 * import { checkResourceSetRuleConfig } from "./rules.ts";
 * checkResourceSetRuleConfig({ pathPatternConfig: { enableDefaultPatterns: true } })?.target;
 * // "pathPatternConfig.createdBy"
 * ```
 *
 * @module
 */

/** The one configuration an account has (the contract's path names it). */
export const RULE_CONFIG_NAME = "defaultResourceSetRuleConfig";

/** What is wrong with a configuration, and where. */
export interface RuleProblem {
  message: string;
  target: string;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function problem(target: string, expected: string, value: unknown): RuleProblem {
  const found = value === undefined ? "nothing" : JSON.stringify(value);
  return { target, message: `${target} must be ${expected}; got ${found}.` };
}

/** The first problem of a PUT body, or undefined when the contract's shape holds. */
export function checkResourceSetRuleConfig(body: Json): RuleProblem | undefined {
  const advanced = body.advancedResourceSet;
  if (advanced !== undefined && advanced !== null) {
    if (!isObject(advanced)) return problem("advancedResourceSet", "an object", advanced);
    const processing = advanced.resourceSetProcessing;
    if (processing !== undefined && processing !== null && typeof processing !== "string") {
      return problem("advancedResourceSet.resourceSetProcessing", "Default or Advanced", processing);
    }
  }
  const config = body.pathPatternConfig;
  if (config === undefined || config === null) return undefined;
  if (!isObject(config)) return problem("pathPatternConfig", "an object", config);
  if (typeof config.enableDefaultPatterns !== "boolean") {
    return problem("pathPatternConfig.enableDefaultPatterns", "true or false", config.enableDefaultPatterns);
  }
  if (typeof config.createdBy !== "string") {
    return problem("pathPatternConfig.createdBy", "a string", config.createdBy);
  }
  for (const list of ["acceptedPatterns", "rejectedPatterns"]) {
    const items = config[list];
    if (items === undefined || items === null) continue;
    if (!Array.isArray(items)) return problem(`pathPatternConfig.${list}`, "an array", items);
    for (const [i, item] of items.entries()) {
      const at = `pathPatternConfig.${list}[${i}]`;
      if (!isObject(item)) return problem(at, "an object", item);
      if (typeof item.name !== "string") return problem(`${at}.name`, "a string", item.name);
      if (typeof item.path !== "string") return problem(`${at}.path`, "a string", item.path);
    }
  }
  const replacers = config.regexReplacers;
  if (replacers !== undefined && replacers !== null) {
    if (!Array.isArray(replacers)) return problem("pathPatternConfig.regexReplacers", "an array", replacers);
    for (const [i, item] of replacers.entries()) {
      const at = `pathPatternConfig.regexReplacers[${i}]`;
      if (!isObject(item)) return problem(at, "an object", item);
      if (typeof item.name !== "string") return problem(`${at}.name`, "a string", item.name);
      if (typeof item.disabled !== "boolean") {
        return problem(`${at}.disabled`, "true or false", item.disabled);
      }
    }
  }
  return undefined;
}

/**
 * The configuration as stored and answered: the body as sent (without nulls, which the contract's types
 * do not allow), named {@link RULE_CONFIG_NAME}, its `pathPatternConfig.lastUpdatedTimestamp` (epoch
 * seconds) and `advancedResourceSet.modifiedAt` set to `now`.
 */
export function storedRuleConfig(body: Json, now: number): Json {
  const stored = withoutNulls(body) as Json;
  delete stored.name;
  const result: Json = { name: RULE_CONFIG_NAME, ...stored };
  if (isObject(result.pathPatternConfig)) {
    result.pathPatternConfig = {
      ...result.pathPatternConfig,
      lastUpdatedTimestamp: Math.floor(now / 1000),
    };
  }
  if (isObject(result.advancedResourceSet)) {
    result.advancedResourceSet = { ...result.advancedResourceSet, modifiedAt: new Date(now).toISOString() };
  }
  return result;
}

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]),
  );
}
