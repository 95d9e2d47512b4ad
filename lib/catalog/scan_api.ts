/**
 * Scanning API calls (2023-09-01): data sources and scans.
 *
 * @module
 */
import type { HttpClient } from "../http.ts";

export class ScanApi {
  protected readonly http: HttpClient;
  constructor(http: HttpClient) {
    this.http = http;
  }
}
