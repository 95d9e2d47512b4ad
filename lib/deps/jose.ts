/**
 * The one module that imports `jose` (panva), the JOSE library that verifies the Entra ID access tokens of
 * signed-in HTTP clients (`lib/mcp/auth/`). Tests sign their own tokens with it too.
 *
 * @module
 */
export {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors as joseErrors,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
} from "npm:jose@6.2.17";
export type { JWK, JWTPayload, JWTVerifyGetKey } from "npm:jose@6.2.17";
