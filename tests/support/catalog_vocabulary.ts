/**
 * The words of the Azure SQL estate the emulator benches build (tests/lib/emulator/search/bench.ts through
 * the bulk API, tests/support/large_catalog.ts straight into a data file): subjects, table kinds, columns
 * with their classifications, labels, collections and description words, and how an index picks from them.
 *
 * @module
 */

export const SUBJECTS = [
  "Customer",
  "Order",
  "Invoice",
  "Product",
  "Supplier",
  "Shipment",
  "Payment",
  "Employee",
  "Account",
  "Campaign",
  "Ticket",
  "Contract",
  "Warehouse",
  "Store",
  "Region",
  "Budget",
  "Forecast",
  "Ledger",
  "Subscription",
  "Device",
  "Session",
  "Claim",
  "Policy",
  "Patient",
  "Vendor",
];
export const KINDS = [
  "Details",
  "History",
  "Summary",
  "Lines",
  "Events",
  "Snapshot",
  "Staging",
  "Facts",
  "Archive",
];
export const COLUMNS: Array<[name: string, classification?: string]> = [
  ["Id"],
  ["Name", "MICROSOFT.PERSONAL.NAME"],
  ["Email", "MICROSOFT.PERSONAL.EMAIL"],
  ["Phone", "MICROSOFT.PERSONAL.US.PHONE_NUMBER"],
  ["CreatedAt"],
  ["UpdatedAt"],
  ["Amount"],
  ["Status"],
  ["CardNumber", "MICROSOFT.FINANCIAL.CREDIT_CARD_NUMBER"],
];
export const LABELS = ["Certified", "PII", "Gold", "Deprecated", "Finance", "Marketing"];
export const COLLECTIONS = ["sales", "finance", "marketing"];
const WORDS = [
  "daily",
  "monthly",
  "revenue",
  "retail",
  "partner",
  "churn",
  "loyalty",
  "audit",
  "compliance",
  "pricing",
  "inventory",
  "fulfilment",
  "returns",
  "discount",
  "tax",
  "refund",
  "risk",
  "growth",
  "segment",
  "channel",
];

/** The `i`th item of `list`, wrapping round. */
export const pick = <T>(list: readonly T[], i: number): T => list[i % list.length];
/** A description made of three of the words, different for neighbouring `i`. */
export const sentence = (i: number): string =>
  `${pick(WORDS, i)} ${pick(WORDS, i * 7 + 3)} data for the ${pick(WORDS, i * 13 + 5)} team`;
