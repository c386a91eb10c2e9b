/**
 * Wiki pages (`.forge/wiki/**\/*.md`): plain markdown, frontmatter optional
 * (spec/schema.md, wiki page). The wiki index is derived from the tree and
 * each page's first H1; nothing about it is stored.
 */
import { UsageError } from "../errors.js";
import { printable } from "../sanitize.js";

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/** The longest page name accepted, in characters. */
export const MAX_PAGE_NAME = 200;

/**
 * A page name's file path under `wiki/`: the name plus `.md` (a name that
 * already ends in `.md` is taken as the file's path, so `list`'s `path`
 * works as a name). A name is `/`-separated segments of letters, digits,
 * `.`, `_` and `-`, none empty and none starting with `.` or `-`: so no
 * `..`, no absolute path, no backslash, no NUL (SEC-02). Checked before
 * anything is read or written.
 * @param name the page name, e.g. `docs/setup`
 * @returns the path relative to `wiki/`, e.g. `docs/setup.md`
 * @throws UsageError for any other name
 * @example wikiPagePath("docs/setup") // "docs/setup.md"
 */
export function wikiPagePath(name: string): string {
  const rel = name.endsWith(".md") ? name : `${name}.md`;
  if (name.length > MAX_PAGE_NAME || !rel.split("/").every((s) => SEGMENT.test(s))) {
    throw new UsageError(
      `invalid page name '${printable(name, 60)}' (segments of A-Z a-z 0-9 . _ - joined by /, not starting with . or -)`
    );
  }
  return rel;
}

/** Whether a path under `wiki/` (with `.md`) is one `wikiPagePath` would give. */
export function isWikiPagePath(rel: string): boolean {
  return rel.endsWith(".md") && rel.length <= MAX_PAGE_NAME + 3 && rel.split("/").every((s) => SEGMENT.test(s));
}

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
