/**
 * A selection of Purview's system classifications (the `MICROSOFT.*` ones its scans apply), enough for the
 * seed catalog and for tests that classify assets.
 *
 * @example
 * ```ts
 * import { CLASSIFICATION_TYPES } from "./builtin_classifications.ts";
 * console.log(CLASSIFICATION_TYPES.length > 3); // true
 * ```
 *
 * @module
 */
import { type BuiltinDef, classification } from "./builtin_builders.ts";

/** System classifications. */
export const CLASSIFICATION_TYPES: BuiltinDef[] = [
  classification("MICROSOFT.PERSONAL.EMAIL", "Email Address", "Email addresses of people"),
  classification("MICROSOFT.PERSONAL.NAME", "Person's Name", "Full names of people"),
  classification("MICROSOFT.PERSONAL.IPADDRESS", "IP Address", "IPv4 and IPv6 addresses"),
  classification(
    "MICROSOFT.PERSONAL.US.PHONE_NUMBER",
    "U.S. Phone Number",
    "Phone numbers in the United States",
  ),
  classification("MICROSOFT.FINANCIAL.CREDIT_CARD_NUMBER", "Credit Card Number", "Payment card numbers"),
  classification(
    "MICROSOFT.FINANCIAL.US.ABA_ROUTING_NUMBER",
    "ABA Routing Number",
    "U.S. bank routing numbers",
  ),
  classification(
    "MICROSOFT.GOVERNMENT.US.SOCIAL_SECURITY_NUMBER",
    "U.S. Social Security Number (SSN)",
    "U.S. social security numbers",
  ),
  classification(
    "MICROSOFT.GOVERNMENT.CANADA.SOCIAL_INSURANCE_NUMBER",
    "Canada Social Insurance Number",
    "Canadian social insurance numbers",
  ),
  classification(
    "MICROSOFT.GOVERNMENT.CHILE.CDI_NUMBER",
    "Chile Identity Card Number",
    "Chilean identity card numbers",
  ),
];
