/**
 * The README stays the size people read, with the rest in `docs/`: README.md is at most 30 KiB, no
 * generated line of a docs page runs past 200 characters, every relative link of the README and the docs
 * pages leads to a file (and heading) that exists, and `docs/index.md` lists every page.
 */
import assert from "node:assert/strict";
import { GENERATED_SECTIONS } from "../../tools/docs_pages.ts";
import { COMMAND_PAGES_FOLDER } from "../../tools/command_pages.ts";

const ROOT = new URL("../../", import.meta.url);
const README_LIMIT_BYTES = 30 * 1024;
const GENERATED_LINE_LIMIT = 200;

/** Every markdown page of `docs/`, from the repository root, sorted. */
function docsPages(dir = "docs/"): string[] {
  return Array.from(Deno.readDirSync(new URL(dir, ROOT))).flatMap((entry) =>
    entry.isDirectory
      ? docsPages(`${dir}${entry.name}/`)
      : entry.name.endsWith(".md")
      ? [`${dir}${entry.name}`]
      : []
  ).sort();
}

const read = (path: string) => Deno.readTextFileSync(new URL(path, ROOT));

/** The lines `deno task docs` writes: whole command pages, and the generated sections of other pages. */
function generatedLines(): Array<{ path: string; line: string }> {
  const lines: Array<{ path: string; line: string }> = [];
  for (const path of docsPages().filter((p) => p.startsWith(COMMAND_PAGES_FOLDER))) {
    lines.push(...read(path).split("\n").map((line) => ({ path, line })));
  }
  for (const section of GENERATED_SECTIONS) {
    const text = read(section.page);
    const body = text.slice(text.indexOf(section.start), text.indexOf(section.end));
    lines.push(...body.split("\n").map((line) => ({ path: section.page, line })));
  }
  return lines;
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, blanks as hyphens. */
function anchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");
}

function anchorsOf(text: string): Set<string> {
  const withoutCode = text.replace(/^```[\s\S]*?^```/gm, "");
  return new Set([...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchor(match[1])));
}

Deno.test("README.md is at most 30 KiB", () => {
  const size = Deno.statSync(new URL("README.md", ROOT)).size;
  assert.ok(
    size <= README_LIMIT_BYTES,
    `README.md is ${size} bytes, over ${README_LIMIT_BYTES}: move detail to a page of docs/ and link it`,
  );
});

Deno.test("no generated line of the docs pages is longer than 200 characters", () => {
  const lines = generatedLines();
  assert.ok(lines.length > 1000, `the generated pages and sections are read (${lines.length} lines)`);
  const long = lines.filter(({ line }) => line.length > GENERATED_LINE_LIMIT)
    .map(({ path, line }) => `${path}: ${line.length} characters: ${line.slice(0, 80)}…`);
  assert.deepEqual(long, [], "generated lines past the limit");
});

Deno.test("every relative link of README.md and docs/ leads to a file and heading that exist", () => {
  const broken: string[] = [];
  for (const page of ["README.md", ...docsPages()]) {
    const text = read(page).replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [file, fragment] = target.split("#", 2);
      const url = file === "" ? new URL(page, ROOT) : new URL(file, new URL(page, ROOT));
      const path = url.pathname.slice(ROOT.pathname.length);
      let targetText: string | undefined;
      try {
        targetText = Deno.statSync(url).isFile ? Deno.readTextFileSync(url) : "";
      } catch {
        broken.push(`${page}: ${target} (no such file)`);
        continue;
      }
      if (fragment && path.endsWith(".md") && !anchorsOf(targetText).has(fragment)) {
        broken.push(`${page}: ${target} (no such heading in ${path})`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

Deno.test("docs/index.md links every page directly in docs/, and the command index", () => {
  const index = read("docs/index.md");
  const linked = new Set([...index.matchAll(/\]\(([^)#\s]+)/g)].map((match) => `docs/${match[1]}`));
  const pages = docsPages().filter((p) =>
    (p !== "docs/index.md" && !p.slice("docs/".length).includes("/")) ||
    p === `${COMMAND_PAGES_FOLDER}index.md`
  );
  assert.deepEqual(pages.filter((p) => !linked.has(p)), [], "pages docs/index.md does not list");
});
