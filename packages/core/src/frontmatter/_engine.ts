/**
 * The general frontmatter path: gray-matter for the fences, the `yaml`
 * package as its only engine, with the SEC-01 limits. The only file that
 * imports gray-matter or yaml; it is loaded lazily, only for frontmatter the
 * canonical line parser does not read.
 */
import matter from "gray-matter";
import { isPair, isScalar, Parser, parseDocument, visit } from "yaml";

/** Nesting deeper than this is refused before the full parse. */
export const MAX_DEPTH = 32;

function refuse(): never {
  throw new Error("frontmatter language is not yaml");
}

function parseYaml(src: string): object {
  checkDepth(src);
  // logLevel "error": yaml's own warnings would go to process.emitWarning, i.e. Node's stderr.
  const doc = parseDocument(src, {
    uniqueKeys: true,
    schema: "core",
    merge: false,
    prettyErrors: false,
    logLevel: "error",
  });
  const e = doc.errors[0];
  if (e)
    throw new Error(`invalid yaml at line ${e.linePos?.[0]?.line ?? "?"}: ${e.code.toLowerCase().replace(/_/g, " ")}`);
  // A key that is a list or a mapping has no JS object form (it would be stringified): refused.
  visit(doc, (_key, node) => {
    if (isPair(node) && node.key !== null && !isScalar(node.key))
      throw new Error("a mapping key is a list or a mapping (not allowed)");
  });
  // maxAliasCount 0: every alias is refused (billion laughs and friends).
  const data: unknown = doc.toJS({ maxAliasCount: 0 });
  return (data ?? {}) as object;
}

const ENGINES = {
  yaml: { parse: parseYaml, stringify: refuse },
  yml: { parse: parseYaml, stringify: refuse },
  json: { parse: refuse, stringify: refuse },
  js: { parse: refuse, stringify: refuse },
  javascript: { parse: refuse, stringify: refuse },
  coffee: { parse: refuse, stringify: refuse },
  coffeescript: { parse: refuse, stringify: refuse },
  cson: { parse: refuse, stringify: refuse },
};

/**
 * Walk the CST (the iterative lexer/parser, no compose step) and refuse
 * nesting deeper than MAX_DEPTH. yaml's composer recurses and deep input has
 * been seen to kill Node outright, so this runs before `parseDocument`.
 * @throws Error naming the limit
 */
export function checkDepth(src: string): void {
  // Cheap pre-scans, so deep input never reaches yaml's parser: compact
  // indicators on one line (`- - - - x`, `? ? x`) are one level each, and so
  // is each deeper indentation (bounded loosely: block scalars indent too).
  const indents: number[] = [];
  for (const line of src.split("\n")) {
    let i = 0;
    while (line.charCodeAt(i) === 32) i++;
    if (i === line.length || line.charCodeAt(i) === 35 /* # */) continue;
    while (indents.length && indents[indents.length - 1]! >= i) indents.pop();
    indents.push(i);
    let compact = 0;
    for (let j = i; j < line.length;) {
      const c = line.charCodeAt(j);
      if ((c === 45 || c === 63 || c === 58) && (line.charCodeAt(j + 1) === 32 || j + 1 === line.length)) {
        compact++;
        j += 2;
        while (line.charCodeAt(j) === 32) j++;
      } else break;
    }
    if (compact > MAX_DEPTH || indents.length + compact > 4 * MAX_DEPTH)
      throw new Error(`nesting deeper than ${MAX_DEPTH}`);
  }
  // Flow bombs: `[[[[…` never needs the CST walk.
  let flow = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (c === 91 || c === 123) {
      if (++flow > MAX_DEPTH) throw new Error(`nesting deeper than ${MAX_DEPTH}`);
    } else if (c === 93 || c === 125) flow = Math.max(0, flow - 1);
  }
  const stack: Array<{ node: unknown; depth: number }> = [];
  for (const tok of new Parser().parse(src)) stack.push({ node: tok, depth: 0 });
  while (stack.length) {
    const { node, depth } = stack.pop()!;
    if (!node || typeof node !== "object") continue;
    const t = node as { type?: string; value?: unknown; items?: unknown[]; key?: unknown; sep?: unknown };
    const nested = t.type === "block-map" || t.type === "block-seq" || t.type === "flow-collection";
    const d = nested ? depth + 1 : depth;
    if (d > MAX_DEPTH) throw new Error(`nesting deeper than ${MAX_DEPTH}`);
    if (t.type === "document") stack.push({ node: t.value, depth: d });
    if (Array.isArray(t.items)) {
      for (const it of t.items as Array<{ key?: unknown; value?: unknown }>) {
        stack.push({ node: it.key, depth: d }, { node: it.value, depth: d });
      }
    }
  }
}

/**
 * Parse a whole file with gray-matter and the limited yaml engine.
 * @returns the data (a mapping) and the body
 * @throws Error with a one-line reason (never the file's contents)
 */
export function parseWithEngine(text: string): { data: Record<string, unknown>; body: string } {
  // Always pass options: without them gray-matter caches by content and hands
  // out a shared `data` object.
  const file = matter(text, { language: "yaml", engines: ENGINES as never });
  const data: unknown = file.data;
  if (data === null || typeof data !== "object" || Array.isArray(data)) throw new Error("frontmatter is not a mapping");
  return { data: structuredClone(data) as Record<string, unknown>, body: file.content };
}
