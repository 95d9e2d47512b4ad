/**
 * The one module that imports the CSV parser and writer (`csv-parse`, `csv-stringify`).
 *
 * @module
 */
export { parse as parseCsv } from "npm:csv-parse@7.0.3";
export { stringify as stringifyCsv } from "npm:csv-stringify@6.9.0/sync";
