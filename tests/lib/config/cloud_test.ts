import assert from "node:assert/strict";
import {
  catalogBaseUrl,
  cloudSettings,
  isLoopbackEndpoint,
  unifiedBaseUrl,
} from "../../../lib/config/cloud.ts";
import { type CloudRegion, loadConfig } from "../../../lib/config/config.ts";

const UNIFIED = "https://api.purview-service.microsoft.com";

Deno.test("cloud settings of the three regions", () => {
  assert.deepEqual(cloudSettings(""), {
    region: "",
    catalogHostSuffix: "purview.azure.com",
    authorityHost: "https://login.microsoftonline.com",
    unifiedBaseUrl: UNIFIED,
  });
  assert.deepEqual(cloudSettings("usgov"), {
    region: "usgov",
    catalogHostSuffix: "purview.azure.us",
    authorityHost: "https://login.microsoftonline.us",
    unifiedBaseUrl: UNIFIED,
  });
  assert.deepEqual(cloudSettings("china"), {
    region: "china",
    catalogHostSuffix: "purview.azure.cn",
    authorityHost: "https://login.chinacloudapi.cn",
    unifiedBaseUrl: UNIFIED,
  });
});

Deno.test("cloudSettings returns a copy callers cannot use to change the table", () => {
  const settings = cloudSettings("");
  settings.catalogHostSuffix = "example.org";
  assert.equal(cloudSettings("").catalogHostSuffix, "purview.azure.com");
});

Deno.test("cloudSettings rejects a region that skipped config validation", () => {
  assert.throws(() => cloudSettings("germany" as CloudRegion), RangeError);
});

Deno.test("catalog base URL is the account host of the configured cloud", () => {
  const expected: Record<string, string> = {
    "": "https://contoso.purview.azure.com",
    usgov: "https://contoso.purview.azure.us",
    china: "https://contoso.purview.azure.cn",
  };
  for (const [region, url] of Object.entries(expected)) {
    const config = loadConfig({ CATALOG_ACCOUNT_NAME: "contoso", CLOUD_REGION: region });
    assert.equal(catalogBaseUrl(config), url);
    assert.equal(unifiedBaseUrl(config), UNIFIED);
  }
});

Deno.test("CATALOG_ENDPOINT and CATALOG_UNIFIED_ENDPOINT override the hosts", () => {
  const config = loadConfig({
    CATALOG_ACCOUNT_NAME: "contoso",
    CLOUD_REGION: "usgov",
    CATALOG_ENDPOINT: "http://127.0.0.1:8085/",
    CATALOG_UNIFIED_ENDPOINT: "https://private.example.org/unified/",
  });
  assert.equal(catalogBaseUrl(config), "http://127.0.0.1:8085");
  assert.equal(unifiedBaseUrl(config), "https://private.example.org/unified");
});

Deno.test("a loopback CATALOG_ENDPOINT serves the unified catalog too, unless CATALOG_UNIFIED_ENDPOINT says otherwise", () => {
  const emulator = { CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:8085/" };
  assert.equal(unifiedBaseUrl(loadConfig(emulator)), "http://127.0.0.1:8085");
  assert.equal(
    unifiedBaseUrl(loadConfig({ ...emulator, CATALOG_ENDPOINT: "http://localhost:9" })),
    "http://localhost:9",
  );
  assert.equal(
    unifiedBaseUrl(loadConfig({ ...emulator, CATALOG_UNIFIED_ENDPOINT: "https://uc.example.org" })),
    "https://uc.example.org",
  );
  // A private endpoint of a real account is not the emulator: the unified catalog stays on its own host.
  assert.equal(
    unifiedBaseUrl(loadConfig({ ...emulator, CATALOG_ENDPOINT: "https://contoso-pe.example.org" })),
    UNIFIED,
  );
});

Deno.test("loopback endpoints", () => {
  for (
    const url of ["http://127.0.0.1:1234", "http://localhost:8085/x", "http://[::1]:80", "http://127.8.9.10"]
  ) {
    assert.equal(isLoopbackEndpoint(url), true, url);
  }
  for (const url of ["https://contoso.purview.azure.com", "http://169.254.169.254", "not a url", ""]) {
    assert.equal(isLoopbackEndpoint(url), false, url);
  }
});

Deno.test("authority hosts equal the values @azure/identity uses", async () => {
  const { AzureAuthorityHosts } = await import("../../../lib/deps/azure_identity.ts");
  assert.equal(cloudSettings("").authorityHost, AzureAuthorityHosts.AzurePublicCloud);
  assert.equal(cloudSettings("usgov").authorityHost, AzureAuthorityHosts.AzureGovernment);
  assert.equal(cloudSettings("china").authorityHost, AzureAuthorityHosts.AzureChina);
});
