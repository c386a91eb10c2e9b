/**
 * Frontmatter in and out: the canonical fast path, the limited gray-matter
 * fallback, and the SEC-01 checks that run before either.
 */
import { InvalidFileError } from "../errors.js";
import { formatCanonical, parseCanonical } from "./canonical.js";

/** Files bigger than this are refused before any parsing (SEC-01). */
export const MAX_FILE_BYTES = 256 * 1024;

/** A parsed store file. */
export interface Frontmatter {
  /** The mapping between the fences. */
  data: Record<string, unknown>;
  /** Everything after the closing fence. */
  body: string;
}

const FENCE_LANG = /^---([^\r\n]*)\r?\n/;
const ENGINE_NAMES = ["js", "javascript", "coffee", "coffeescript", "cson", "json", "toml"];

/**
 * Parse a store file: `---` fence, YAML mapping, `---` fence, body.
 * Canonical frontmatter is read by a line parser; anything else goes through
 * gray-matter with the `yaml` engine, a depth cap, no aliases, and every
 * code-evaluating engine refused.
 * @param text the file's text
 * @param file the file's name for errors (relative to the repo)
 * @returns data and body
 * @throws InvalidFileError naming the file, never quoting it
 * @example await parseFrontmatter("---\ntitle: x\n---\nhi\n", "a.md") // {data: {title: "x"}, body: "hi\n"}
 */
export async function parseFrontmatter(text: string, file: string): Promise<Frontmatter> {
  const fast = parseFrontmatterFast(text, file);
  if (fast) return fast;
  engine ??= await import("./_engine.js");
  return viaEngine(engine, text, file);
}

let engine: typeof import("./_engine.js") | undefined;

/**
 * `parseFrontmatter` without the await, for the write path (which runs under
 * a lock, synchronously): the canonical parser, else the general engine if
 * an earlier read has loaded it; `undefined` when it would need the engine
 * and the engine is not loaded yet (call `loadEngine` first).
 * @throws InvalidFileError as `parseFrontmatter` does
 */
export function parseFrontmatterSync(text: string, file: string): Frontmatter | undefined {
  const fast = parseFrontmatterFast(text, file);
  if (fast || !engine) return fast;
  return viaEngine(engine, text, file);
}

/** Load the general YAML engine now, so `parseFrontmatterSync` can read any file. */
export async function loadEngine(): Promise<void> {
  engine ??= await import("./_engine.js");
}

function viaEngine(e: typeof import("./_engine.js"), text: string, file: string): Frontmatter {
  try {
    return e.parseWithEngine(text);
  } catch (err) {
    throw new InvalidFileError(file, oneLine(err));
  }
}

/**
 * The synchronous half of `parseFrontmatter`: checks, then the canonical
 * parser. Returns `undefined` when the general engine is needed.
 * @throws InvalidFileError for a file too big, without frontmatter, or in another language
 */
export function parseFrontmatterFast(text: string, file: string): Frontmatter | undefined {
  // UTF-8 takes at most 3 bytes per UTF-16 unit: only a long text needs its bytes counted.
  if (text.length > MAX_FILE_BYTES || (text.length > MAX_FILE_BYTES / 3 && Buffer.byteLength(text) > MAX_FILE_BYTES)) {
    throw new InvalidFileError(file, `larger than ${MAX_FILE_BYTES / 1024} KiB`);
  }
  const m = FENCE_LANG.exec(text);
  if (!m) throw new InvalidFileError(file, "no frontmatter (expected a '---' first line)");
  const lang = m[1]!.trim();
  if (lang !== "" && lang !== "yaml" && lang !== "yml") {
    // Named only when it is one of the engines gray-matter knows (a word from this list, not from the file: SEC-10).
    const known = ENGINE_NAMES.includes(lang) ? `'${lang}' ` : "";
    throw new InvalidFileError(file, `frontmatter language ${known}is not allowed (the first line must be '---')`);
  }
  if (lang !== "" || !text.startsWith("---\n")) return undefined;
  let end = text.indexOf("\n---\n", 3);
  let bodyAt = end + 5;
  if (end < 0 && text.endsWith("\n---")) {
    end = text.length - 4;
    bodyAt = text.length;
  }
  if (end < 0) throw new InvalidFileError(file, "frontmatter has no closing '---'");
  const data = parseCanonical(text.slice(4, end + 1));
  return data ? { data, body: text.slice(bodyAt) } : undefined;
}

/**
 * Write a store file in canonical form. `parseFrontmatter(formatFrontmatter(d, b))`
 * gives back `d` and `b`, and a canonical file round-trips byte for byte.
 * @param data the mapping, keys in the order they should appear
 * @param body the body (kept as is)
 * @throws TypeError for a value outside the canonical subset
 * @example formatFrontmatter({title: "x"}, "hi\n") // "---\ntitle: x\n---\nhi\n"
 */
export function formatFrontmatter(data: Record<string, unknown>, body: string): string {
  return `---\n${formatCanonical(data)}---\n${body}`;
}

function oneLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return (msg.split("\n")[0] ?? "").slice(0, 160);
}
