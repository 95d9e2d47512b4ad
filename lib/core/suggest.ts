/**
 * "Did you mean" suggestions for mistyped groups, commands and options.
 *
 * @example
 * ```ts
 * import { closestName } from "./suggest.ts";
 * closestName("entiy", ["entity", "types"]); // "entity"
 * ```
 *
 * @module
 */

/** Edit distance (insertions, deletions, substitutions, adjacent swaps). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => [i, ...new Array(cols - 1).fill(0)]);
  for (let j = 0; j < cols; j++) d[0][j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

const comparable = (name: string) => name.toLowerCase().replace(/[-_]/g, "");

/** The candidate nearest to `input`, or undefined when none is plausibly what was meant. */
export function closestName(input: string, candidates: Iterable<string>): string | undefined {
  const target = comparable(input);
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const candidate = comparable(name);
    const distance = candidate.startsWith(target) && target.length >= 3 ? 1 : editDistance(target, candidate);
    if (!best || distance < best.distance) best = { name, distance };
  }
  const allowed = Math.max(2, Math.floor(target.length / 3));
  return best && best.distance <= allowed ? best.name : undefined;
}

/** ` Did you mean "x"?` or an empty string. */
export function didYouMean(input: string, candidates: Iterable<string>, prefix = ""): string {
  const name = closestName(input, candidates);
  return name ? ` Did you mean "${prefix}${name}"?` : "";
}
