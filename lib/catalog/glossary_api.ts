/**
 * Classic glossary calls of the data map API.
 *
 * @module
 */
import type { HttpClient } from "../http.ts";

export class GlossaryApi {
  protected readonly http: HttpClient;
  constructor(http: HttpClient) {
    this.http = http;
  }
}
