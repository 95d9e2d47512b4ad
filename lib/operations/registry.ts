/**
 * The operation registry: registration, lookup by id, by group and command (with aliases, in any of the
 * spellings users type: `read-terms`, `readTerms`, `read_terms`), and listing by group. Destructive
 * operations are registered with their confirmation (see `confirmation.ts`).
 *
 * @example
 * ```ts
 * import { OperationRegistry } from "./registry.ts";
 * const registry = new OperationRegistry();
 * // registry.register(getEntity);
 * registry.find("entity", "get"); // undefined until registered
 * ```
 *
 * @module
 */
import { withConfirmation } from "./confirmation.ts";
import { OPERATION_GROUPS, type OperationGroup } from "./groups.ts";
import type { Operation } from "./types.ts";

/**
 * `read-terms`, `readTerms` and `read_terms` all become `readterms`; two-word commands of the `uc` group
 * (`term create`) compare the same way, spaces removed.
 */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, "");
}

/**
 * Every operation by id, and by group and command (aliases and spellings included), as the CLI, `--help`
 * and the MCP registry tools look them up.
 *
 * @example
 * ```ts
 * import { createOperationRegistry } from "./mod.ts";
 * const registry = createOperationRegistry();
 * console.log(registry.find("glossary", "list-terms")?.id); // "glossary.list-terms"
 * ```
 */
export class OperationRegistry {
  readonly #byId = new Map<string, Operation>();
  /** group → normalized command or alias → operation */
  readonly #byCommand = new Map<string, Map<string, Operation>>();
  readonly #groups: OperationGroup[];

  /** An empty registry with these groups; operations are added with `add`. */
  constructor(groups: ReadonlyArray<OperationGroup> = OPERATION_GROUPS) {
    this.#groups = [...groups];
  }

  /**
   * Adds operations; a duplicate id, command or alias within its group is a programming error. A
   * destructive operation is held with its confirmation (a `confirm` input, checked before it runs; see
   * `confirmation.ts`), so every front end applies the same rule.
   */
  register(...operations: Operation[]): this {
    for (const given of operations) {
      const operation = withConfirmation(given);
      if (this.#byId.has(operation.id)) throw new Error(`duplicate operation id ${operation.id}`);
      if (!this.#groups.some((g) => g.name === operation.group)) {
        throw new Error(`operation ${operation.id} names unknown group ${operation.group}`);
      }
      const commands = this.#byCommand.get(operation.group) ?? new Map<string, Operation>();
      for (const name of [operation.command, ...(operation.aliases ?? [])]) {
        const key = normalizeName(name);
        const existing = commands.get(key);
        if (existing && existing !== operation) {
          throw new Error(`${operation.group} ${name} is taken by ${existing.id}`);
        }
        commands.set(key, operation);
      }
      this.#byCommand.set(operation.group, commands);
      this.#byId.set(operation.id, operation);
    }
    return this;
  }

  /** By stable id (`entity.get`), or by `group command` / `group.command` in any spelling. */
  get(id: string): Operation | undefined {
    const direct = this.#byId.get(id);
    if (direct) return direct;
    const match = /^([A-Za-z_]+)[.\s/]+(.+)$/.exec(id.trim());
    return match ? this.find(match[1], match[2]) : undefined;
  }

  /** The operation of `group` called `command` (or one of its aliases, in any spelling), if any. */
  find(group: string, command: string): Operation | undefined {
    const groupName = this.group(group)?.name;
    return groupName ? this.#byCommand.get(groupName)?.get(normalizeName(command)) : undefined;
  }

  /** The group called `name`, if any. */
  group(name: string): OperationGroup | undefined {
    const key = normalizeName(name);
    return this.#groups.find((g) => normalizeName(g.name) === key);
  }

  /** The groups, in the order `--help` lists them. */
  groups(): OperationGroup[] {
    return [...this.#groups];
  }

  /** Every operation, in registration order. */
  all(): Operation[] {
    return [...this.#byId.values()];
  }

  /** The operations of a group, in the order they were added. */
  inGroup(group: string): Operation[] {
    const name = this.group(group)?.name;
    return this.all().filter((op) => op.group === name);
  }

  /** Every name a user may type in a group (commands and aliases), for "did you mean". */
  commandNames(group: string): string[] {
    return this.inGroup(group).flatMap((op) => [op.command, ...(op.aliases ?? [])]);
  }
}
