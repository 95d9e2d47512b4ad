/**
 * Lineage calls of the data map API.
 *
 * @module
 */
import type { HttpClient } from "../http.ts";

export class LineageApi {
  protected readonly http: HttpClient;
  constructor(http: HttpClient) {
    this.http = http;
  }
}
