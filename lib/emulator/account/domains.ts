/**
 * Domains and feature flags of the account API (2023-10-01-preview; contract:
 * ../shared/reference/rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.Account/preview/2023-10-01-preview/account.json):
 * `GET /account/domains`, `GET /account/domains/{domainName}` and `POST /account/features`.
 *
 * The API only reads domains. An account has its default domain, which stands over its root collection:
 * so the emulated account has one domain, named like the root collection, whose friendly name, description
 * and change stamps are the root collection's (rename the root collection and the domain follows).
 *
 * `POST /account/features` answers, for each feature asked, whether the account has it on. The emulated
 * account has on the areas of this API it serves ({@link EMULATED_FEATURES}); every other name is off.
 *
 * @module
 */
import { invalid, objectBody, skipTokenPage } from "./request.ts";
import { type CollectionStore, ROOT_NAME, type StoredCollection } from "../collections/store.ts";
import { EmulatorError, jsonResponse } from "../errors.ts";
import type { RouteDefinition } from "../router.ts";

/** Feature names the emulated account answers as on (compared without regard to case). */
export const EMULATED_FEATURES: readonly string[] = [
  "Domains",
  "ContactAssignments",
  "ContactGroupDefinitions",
  "ResourceSetRules",
];

/** The most feature names one request may ask about. */
export const MAX_FEATURES = 100;

/** The domain and feature routes; the domain is read from the root collection of `collections`. */
export function domainRoutes(collections: () => CollectionStore): RouteDefinition[] {
  const domains = () => {
    const root = collections().get(ROOT_NAME);
    return root ? [domainOf(root)] : [];
  };
  return [
    {
      method: "GET",
      path: "/account/domains",
      handler: ({ url }) => jsonResponse(skipTokenPage(url, domains())),
    },
    {
      method: "GET",
      path: "/account/domains/{domainName}",
      handler: ({ params }) => {
        const domain = domains().find((d) => d.name.toLowerCase() === params.domainName.toLowerCase());
        if (!domain) {
          throw new EmulatorError(
            404,
            "DomainNotFound",
            `No domain is named ${params.domainName}; the account's domains are: ` +
              `${domains().map((d) => d.name).join(", ") || "none"} (GET /account/domains lists them).`,
            { target: "domainName" },
          );
        }
        return jsonResponse(domain);
      },
    },
    {
      method: "POST",
      path: "/account/features",
      handler: async (ctx) => {
        const body = await objectBody(ctx, '{"features": ["<feature name>", ...]}');
        const names = featureNames(body.features);
        const on = new Set(EMULATED_FEATURES.map((f) => f.toLowerCase()));
        return jsonResponse({ features: Object.fromEntries(names.map((n) => [n, on.has(n.toLowerCase())])) });
      },
    },
  ];
}

function featureNames(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw invalid(
      "InvalidFeatureRequest",
      'features must be a non-empty array of names, e.g. {"features": ["Domains"]}.',
      "features",
    );
  }
  if (value.length > MAX_FEATURES) {
    throw invalid(
      "InvalidFeatureRequest",
      `Ask about at most ${MAX_FEATURES} features at once, got ${value.length}.`,
      "features",
    );
  }
  const seen = new Set<string>();
  for (const [i, name] of value.entries()) {
    if (typeof name !== "string" || name.trim() === "") {
      throw invalid("InvalidFeatureRequest", `features[${i}] must be a non-empty string.`, `features[${i}]`);
    }
    if (seen.has(name)) {
      throw invalid(
        "InvalidFeatureRequest",
        `features lists ${name} twice; each name once.`,
        `features[${i}]`,
      );
    }
    seen.add(name);
  }
  return value as string[];
}

/** The default domain over `root`, in the contract's Domain shape. */
function domainOf(root: StoredCollection): { name: string } & Record<string, unknown> {
  const domain: { name: string } & Record<string, unknown> = {
    name: root.name,
    friendlyName: root.friendlyName,
    containerType: "Domain",
    environment: "Prod",
    provisioningState: "Succeeded",
    systemData: {
      createdBy: root.createdBy,
      createdByType: root.createdByType,
      createdAt: new Date(root.createdAt).toISOString(),
      lastModifiedBy: root.lastModifiedBy,
      lastModifiedByType: root.lastModifiedByType,
      lastModifiedAt: new Date(root.lastModifiedAt).toISOString(),
    },
  };
  if (root.description !== undefined) domain.description = root.description;
  return domain;
}
