/**
 * What approving a user request does in the emulator: its change is applied to the emulated catalog, the
 * way the workflow's own CreateTerm / UpdateTerm / DeleteTerm action does in the service. Term changes go
 * through the glossary's own writer (the same checks as `POST /glossary/term`: the anchor glossary must
 * exist, names are unique within it). The contract's other operation types (ImportTerms, UpdateAsset,
 * GrantDataAccess) have no payload shape in the contract, so the emulator records their approval and
 * changes nothing.
 *
 * @module
 */
import type { AreaDependencies } from "../area.ts";
import { EmulatorError } from "../errors.ts";
import { GlossaryStore } from "../glossary/store.ts";
import { GlossaryViews } from "../glossary/views.ts";
import { GlossaryWriter } from "../glossary/writes.ts";
import { isObject } from "./shape.ts";

/** The change of one user request operation. */
export interface RequestedChange {
  type: string;
  payload: Record<string, unknown>;
}

/** What applying a change did, for the run's detail. */
export interface AppliedChange {
  /** E.g. `created term 1b2c…`. */
  summary: string;
  /** The GUID of the object created or changed, when there is one. */
  guid?: string;
}

/** Applies changes to the emulator's catalog. */
export class ChangeApplier {
  readonly #writer: GlossaryWriter;

  constructor(deps: AreaDependencies) {
    const views = new GlossaryViews(GlossaryStore.for(deps.store.database), deps.store);
    this.#writer = new GlossaryWriter(deps, views);
  }

  /** Applies one change; throws the glossary's EmulatorError when the catalog refuses it. */
  apply(change: RequestedChange): AppliedChange {
    switch (change.type) {
      case "CreateTerm": {
        const [term] = this.#writer.createTerms([glossaryTerm(change)]);
        return { summary: `created term ${term.guid}`, guid: term.guid };
      }
      case "UpdateTerm": {
        const body = glossaryTerm(change);
        const term = this.#writer.updateTerm(termGuid(body), body);
        return { summary: `updated term ${term.guid}`, guid: term.guid };
      }
      case "DeleteTerm": {
        const guid = termGuid(glossaryTerm(change));
        this.#writer.deleteTerm(guid);
        return { summary: `deleted term ${guid}`, guid };
      }
      default:
        return { summary: `${change.type} approved; the emulator keeps no state for it` };
    }
  }
}

/** The term a term operation carries (`payload.glossaryTerm`). */
export function glossaryTerm(change: RequestedChange): Record<string, unknown> {
  const term = change.payload.glossaryTerm;
  if (!isObject(term)) {
    throw new EmulatorError(
      400,
      "InvalidUserRequest",
      `A ${change.type} operation carries the term as payload.glossaryTerm, an object with name and anchor.`,
      { target: "operations.payload.glossaryTerm" },
    );
  }
  return term;
}

function termGuid(term: Record<string, unknown>): string {
  if (typeof term.guid === "string" && term.guid !== "") return term.guid;
  throw new EmulatorError(
    400,
    "InvalidUserRequest",
    "The term to change names no guid (payload.glossaryTerm.guid).",
    {
      target: "operations.payload.glossaryTerm.guid",
    },
  );
}
