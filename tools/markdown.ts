/**
 * Markdown the documentation generators write: tables laid out as `deno fmt` lays them out, and prose
 * wrapped at the width `deno fmt` keeps, so formatting a generated page changes nothing and no generated
 * line runs to hundreds of characters.
 *
 * @module
 */

/** The width generated prose is wrapped at (`fmt.lineWidth` in deno.json). */
export const LINE_WIDTH = 110;

/** A markdown table laid out the way `deno fmt` formats tables. */
export function markdownTable(header: string[], rows: string[][]): string {
  const escape = (cell: string) => cell.replace(/\|/g, "\\|");
  const body = rows.map((row) => row.map(escape));
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...body.map(line)].join("\n");
}

/**
 * `text` as lines of at most `width` characters (a word longer than that gets a line of its own), each
 * after the first starting with `indent`. A code span or a link is one word, as `deno fmt` keeps them, and a
 * word that would make a line start as a list item, a heading or a quote stays on the line before.
 */
export function wrapText(text: string, width = LINE_WIDTH, indent = ""): string {
  const lines: string[] = [];
  let line = "";
  for (const word of words(text)) {
    const candidate = line === "" ? word : `${line} ${word}`;
    const startsBlock = /^(?:[-+*>]|#+|\d+[.)])$/.test(word);
    if (line !== "" && (lines.length === 0 ? 0 : indent.length) + candidate.length > width && !startsBlock) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line !== "") lines.push(line);
  return lines.map((l, i) => (i === 0 ? l : indent + l)).join("\n");
}

/** The blank-separated words of `text`, a code span (`` `a b` ``) or a link (`[a b](c)`) counting as one. */
function words(text: string): string[] {
  const found: string[] = [];
  let word = "";
  let inCode = false;
  let inLink = false;
  const chars = [...text.trim()];
  chars.forEach((char, i) => {
    if (char === "`") inCode = !inCode;
    if (!inCode && char === "[") inLink = true;
    if (!inCode && inLink && (char === ")" || (char === "]" && chars[i + 1] !== "("))) inLink = false;
    if (/\s/.test(char) && !inCode && !inLink) {
      if (word !== "") found.push(word);
      word = "";
    } else {
      word += char;
    }
  });
  if (word !== "") found.push(word);
  return found;
}
