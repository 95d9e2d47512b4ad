/**
 * The cell kinds of CSV templates: how a cell's text is checked and what value it becomes (GUIDs in
 * lower case, integers and scores as numbers, booleans, enum values in their canonical spelling, parsed
 * JSON). A bad cell gets a message saying what was expected, with an example.
 *
 * @example
 * ```ts
 * import { convertCell } from "./kinds.ts";
 * convertCell({ kind: "enum", values: ["Draft", "Approved"] }, "approved"); // "Approved"
 * convertCell({ kind: "score" }, "1.5"); // new CellError('"1.5" is not a number from 0 to 1 (e.g. 0.85)')
 * ```
 *
 * @module
 */
import { didYouMean } from "../core/suggest.ts";
import { shown } from "./problems.ts";
import type { CellValue, ColumnKind } from "./types.ts";
import { GUID_PATTERN } from "../core/guid.ts";

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const TRUE = new Set(["true", "yes", "1"]);
const FALSE = new Set(["false", "no", "0"]);

/** What a cell must be; `values` for enums. */
export interface CellRule {
  kind: ColumnKind;
  values?: readonly string[];
}

/** Why a cell's text is not a value of its kind (a class, so good values need no wrapper object). */
export class CellError {
  constructor(readonly message: string) {}
}

/** A short description of a kind for hints (`GUID`, `one of Draft, Approved`). */
export function kindLabel(rule: CellRule): string {
  switch (rule.kind) {
    case "text":
      return "text";
    case "guid":
      return "GUID";
    case "integer":
      return "whole number";
    case "boolean":
      return "true or false";
    case "score":
      return "number from 0 to 1";
    case "enum":
      return `one of ${(rule.values ?? []).join(", ")}`;
    case "json":
      return "JSON";
    case "email":
      return "e-mail address";
    case "url":
      return "http(s) URL";
  }
}

/** Checks and converts one non-empty, trimmed value; a {@link CellError} says why it is not one. */
export function convertCell(rule: CellRule, text: string): CellValue | CellError {
  switch (rule.kind) {
    case "text":
      return text;
    case "guid":
      return GUID_PATTERN.test(text) ? text.toLowerCase() : new CellError(
        `${shown(text)} is not a GUID: 32 hexadecimal digits written 8-4-4-4-12 are expected, ` +
          "e.g. 9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f",
      );
    case "integer": {
      const number = Number(text);
      if (!INTEGER.test(text)) return new CellError(`${shown(text)} is not a whole number (e.g. 30)`);
      if (!Number.isSafeInteger(number)) return new CellError(`${shown(text)} is too large a number`);
      return number;
    }
    case "boolean": {
      const lower = text.toLowerCase();
      if (TRUE.has(lower)) return true;
      if (FALSE.has(lower)) return false;
      return new CellError(`${shown(text)} is not true or false (yes/no and 1/0 work too)`);
    }
    case "score": {
      if (/^[+-]?\d*,\d+$/.test(text)) {
        return new CellError(
          `${shown(text)}: write the decimal separator as a dot (${text.replace(",", ".")})`,
        );
      }
      const number = Number(text);
      if (!DECIMAL.test(text) || number < 0 || number > 1) {
        return new CellError(`${shown(text)} is not a number from 0 to 1 (e.g. 0.85)`);
      }
      return number;
    }
    case "enum": {
      const values = rule.values ?? [];
      const lower = text.toLowerCase();
      const match = values.find((value) => value.toLowerCase() === lower);
      if (match !== undefined) return match;
      return new CellError(
        `${shown(text)} is not one of ${values.join(", ")} (letter case does not matter).${
          didYouMean(text, values)
        }`,
      );
    }
    case "json":
      try {
        return JSON.parse(text);
      } catch (error) {
        return new CellError(
          `${shown(text)} is not valid JSON (${(error as Error).message}); e.g. {"key": "value"}`,
        );
      }
    case "email":
      return EMAIL.test(text)
        ? text
        : new CellError(`${shown(text)} is not an e-mail address (e.g. name@contoso.com)`);
    case "url": {
      let url: URL | undefined;
      try {
        url = new URL(text);
      } catch {
        url = undefined;
      }
      return url && (url.protocol === "https:" || url.protocol === "http:")
        ? text
        : new CellError(`${shown(text)} is not an http(s) URL (e.g. https://contoso.com/wiki/page)`);
    }
  }
}
