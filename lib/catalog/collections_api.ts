/**
 * Collection calls of the account API (2019-11-01-preview).
 *
 * @module
 */
import type { HttpClient } from "../http.ts";

export class CollectionsApi {
  protected readonly http: HttpClient;
  constructor(http: HttpClient) {
    this.http = http;
  }
}
