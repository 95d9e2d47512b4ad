/**
 * Hosts of the catalog per cloud (public, US Government, China) and the base URLs derived from the
 * configuration, so every other module asks here instead of spelling a host name.
 *
 * @example
 * ```ts
 * import { loadConfig } from "./config.ts";
 * import { catalogBaseUrl, cloudSettings } from "./cloud.ts";
 * const config = loadConfig({ CATALOG_ACCOUNT_NAME: "contoso", CLOUD_REGION: "usgov" });
 * console.log(catalogBaseUrl(config)); // https://contoso.purview.azure.us
 * console.log(cloudSettings("usgov").authorityHost); // https://login.microsoftonline.us
 * ```
 *
 * @module
 */
import { type CloudRegion, type Config } from "./config.ts";
import { isLoopbackHost } from "./readers.ts";

/**
 * Login authorities, the values of `AzureAuthorityHosts` in @azure/identity (a test keeps them equal),
 * written out so that reading the cloud settings does not load that large package.
 */
const AUTHORITY_HOSTS = {
  public: "https://login.microsoftonline.com",
  usgov: "https://login.microsoftonline.us",
  china: "https://login.chinacloudapi.cn",
} as const;

export type { CloudRegion };

/** Where a cloud's catalog and its login authority live. */
export interface CloudSettings {
  region: CloudRegion;
  /** Appended to the account name: `{account}.{catalogHostSuffix}`. */
  catalogHostSuffix: string;
  /** Microsoft Entra authority host that issues tokens in this cloud. */
  authorityHost: string;
  /** Base URL of the unified catalog (data governance) API, without a path. */
  unifiedBaseUrl: string;
}

/**
 * The unified catalog publishes one host; no sovereign-cloud host is documented, so every region uses it
 * and `CATALOG_UNIFIED_ENDPOINT` overrides it where a different one applies.
 */
const UNIFIED_CATALOG_HOST = "https://api.purview-service.microsoft.com";

const CLOUDS: Readonly<Record<CloudRegion, Readonly<CloudSettings>>> = Object.freeze({
  "": Object.freeze({
    region: "",
    catalogHostSuffix: "purview.azure.com",
    authorityHost: AUTHORITY_HOSTS.public,
    unifiedBaseUrl: UNIFIED_CATALOG_HOST,
  }),
  usgov: Object.freeze({
    region: "usgov",
    catalogHostSuffix: "purview.azure.us",
    authorityHost: AUTHORITY_HOSTS.usgov,
    unifiedBaseUrl: UNIFIED_CATALOG_HOST,
  }),
  china: Object.freeze({
    region: "china",
    catalogHostSuffix: "purview.azure.cn",
    authorityHost: AUTHORITY_HOSTS.china,
    unifiedBaseUrl: UNIFIED_CATALOG_HOST,
  }),
});

/**
 * Settings of a cloud region (`""` is the public cloud).
 *
 * @example
 * ```ts
 * import { cloudSettings } from "./cloud.ts";
 * cloudSettings("china").catalogHostSuffix; // "purview.azure.cn"
 * ```
 */
export function cloudSettings(region: CloudRegion): CloudSettings {
  const settings = CLOUDS[region];
  // Config validation rejects unknown regions; this guards callers that build a Config by hand.
  if (settings === undefined) throw new RangeError(`Unknown cloud region "${region}".`);
  return { ...settings };
}

/**
 * Base URL of the account's data map, catalog, scanning and account APIs: `CATALOG_ENDPOINT` when set,
 * else `https://{account}.{cloud suffix}`. Never ends in a slash.
 *
 * @example
 * ```ts
 * import { loadConfig } from "./config.ts";
 * import { catalogBaseUrl } from "./cloud.ts";
 * catalogBaseUrl(loadConfig({ CATALOG_ACCOUNT_NAME: "contoso" })); // "https://contoso.purview.azure.com"
 * ```
 */
export function catalogBaseUrl(config: Config): string {
  if (config.endpoint) return config.endpoint.replace(/\/+$/, "");
  return `https://${config.accountName}.${cloudSettings(config.region).catalogHostSuffix}`;
}

/**
 * Base URL of the unified catalog API: `CATALOG_UNIFIED_ENDPOINT` when set; else `CATALOG_ENDPOINT` when that
 * is on loopback (the emulator serves both APIs on one port, and a catalog on this machine must never send
 * the unified calls, with a token, to the public host); else the cloud's unified host. Never ends in a
 * slash.
 *
 * @example
 * ```ts
 * import { loadConfig } from "./config.ts";
 * import { unifiedBaseUrl } from "./cloud.ts";
 * unifiedBaseUrl(loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:8085" }));
 * // "http://127.0.0.1:8085"
 * ```
 */
export function unifiedBaseUrl(config: Config): string {
  if (config.unifiedEndpoint) return config.unifiedEndpoint.replace(/\/+$/, "");
  if (config.endpoint && isLoopbackEndpoint(config.endpoint)) return config.endpoint.replace(/\/+$/, "");
  return cloudSettings(config.region).unifiedBaseUrl;
}

/**
 * True when `url` points at this machine (127.0.0.0/8, ::1, localhost): such endpoints are the emulator and
 * never receive a token. An unparsable URL is not loopback.
 */
export function isLoopbackEndpoint(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}
