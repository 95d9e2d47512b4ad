/**
 * The one module that imports `@azure/identity`. Only `lib/auth/` uses it.
 *
 * @module
 */
export {
  AzureAuthorityHosts,
  AzureCliCredential,
  AzureDeveloperCliCredential,
  ChainedTokenCredential,
  ClientSecretCredential,
  CredentialUnavailableError,
  EnvironmentCredential,
  ManagedIdentityCredential,
  OnBehalfOfCredential,
  WorkloadIdentityCredential,
} from "npm:@azure/identity@4.14.1";
export type {
  AccessToken,
  OnBehalfOfCredentialSecretOptions,
  TokenCredential,
} from "npm:@azure/identity@4.14.1";
