/**
 * HTTP for the benches' baselines and arrangement: a JSON POST sent with plain fetch, nothing else in the
 * way, so a figure measured against it shows only what the thing benchmarked adds.
 *
 * @module
 */

/**
 * POSTs `body` as JSON and returns the answer's text, left unparsed so a bench that does not read it does
 * not time parsing it; a non-2xx answer throws.
 */
export async function postJson(url: string, body: unknown): Promise<string> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${text.slice(0, 300)}`);
  return text;
}
