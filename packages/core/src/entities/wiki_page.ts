/**
 * Wiki pages (`.forge/wiki/**\/*.md`): plain markdown, frontmatter optional
 * (spec/schema.md, wiki page). The wiki index is derived from the tree and
 * each page's first H1; nothing about it is stored.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const H1 = /^ {0,3}#(?:[ \t]+(.*))?$/;

/**
 * A wiki page's title: its first ATX H1 (`# Title`), outside fenced code
 * blocks and outside a leading frontmatter block; a closing `#` run is
 * dropped, as in CommonMark. Empty headings are skipped. Setext headings
 * (`Title` over `===`) are not titles.
 * @param text the page's markdown
 * @returns the title, or `null` when the page has none
 * @example wikiTitle("```sh\n# not this\n```\n# Build log\n") // "Build log"
 */
export function wikiTitle(text: string): string | null {
  const lines = text.split("\n");
  let i = frontmatterEnd(lines);
  let fence: string | undefined;
  for (; i < lines.length; i++) {
    const line = lines[i]!.endsWith("\r") ? lines[i]!.slice(0, -1) : lines[i]!;
    const f = FENCE.exec(line);
    if (fence !== undefined) {
      // A fence closes with the same character, at least as long, nothing after it.
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && f[2]!.trim() === "") fence = undefined;
      continue;
    }
    if (f && !(f[1]![0] === "`" && f[2]!.includes("`"))) {
      fence = f[1]!;
      continue;
    }
    const h = H1.exec(line);
    if (!h) continue;
    const title = (h[1] ?? "").replace(/(?:^|[ \t]+)#+[ \t]*$/, "").trim();
    if (title !== "") return title;
  }
  return null;
}

// --- internal ---

/** The index of the first line after a leading `---` frontmatter block (0 when there is none). */
function frontmatterEnd(lines: string[]): number {
  if (lines[0]?.replace(/\r$/, "") !== "---") return 0;
  for (let i = 1; i < lines.length; i++) if (lines[i]!.replace(/\r$/, "") === "---") return i + 1;
  return 0;
}
