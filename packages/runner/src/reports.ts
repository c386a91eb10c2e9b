/**
 * Test reports: what a step wrote into its `FORGE_REPORTS_DIR` (JUnit XML,
 * `*.xml`, as node's `--test-reporter=junit`, vitest, jest-junit, mocha,
 * pytest `--junitxml` and gotestsum write it; TAP, `*.tap`), read into test
 * cases: an id (file/classname + name, unique within the step), an outcome,
 * a duration and a failure signature masked as a step's is. A report is
 * untrusted input: a file over `MAX_FILE_BYTES`, reports over
 * `MAX_TOTAL_BYTES`, a DOCTYPE or an entity declaration (billion laughs,
 * external entities), nesting deeper than `MAX_DEPTH`, a symlink or more
 * than `MAX_CASES` cases refuse the step's reports whole, with one line:
 * the step stays one check, as a step without reports is.
 */
import { createHash } from "node:crypto";
import { closeSync, fstatSync, lstatSync, openSync, readdirSync, readSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { XMLParser } from "fast-xml-parser";
import { maskedTail, SIGNATURE_VERSION } from "./signature.js";

/** How one test case ended. */
export type TestOutcome = "pass" | "fail" | "skip" | "error";

/** One test case of a step, as a run records it. */
export interface TestCase {
  /** Unique within the step: `suite › … › name (file)`, with ` #2`… on a repeat. */
  id: string;
  /** The runner's own name of the test (what a name filter matches). */
  name: string;
  outcome: TestOutcome;
  durationMs: number;
  /** `sig-v1:…` of a `fail` or `error`, else null. */
  signature: string | null;
}

/** A step's reports: the cases, or why they were refused (then no case). */
export interface StepReports {
  tests: TestCase[];
  /** One line: the file and why its step's reports were refused; null when read (or none). */
  error: string | null;
}

/** The separator of a check name's parts (`20-unit › parser › handles --`). */
export const TEST_SEPARATOR = " › ";

/** The most bytes of one report file. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;
/** The most bytes of all of a step's reports. */
export const MAX_TOTAL_BYTES = 32 * 1024 * 1024;
/** The deepest element nesting (JUnit nests suites a few levels at most). */
export const MAX_DEPTH = 64;
/** The most test cases of one step. */
export const MAX_CASES = 100_000;
/** The most report files of one step, and the deepest folder. */
const MAX_FILES = 1000;
const MAX_DIR_DEPTH = 4;
/** The longest name part kept (longer ones are cut). */
const MAX_NAME = 500;

/** Why a report is refused. */
class Refused extends Error {}

/**
 * Read the reports a step wrote into `dir` (missing or empty: no tests).
 * @param step the step's name (part of each failure's signature)
 * @param dir the step's reports folder
 * @param tree the folder the step ran in (masked as `<tree>`; a file attribute under it is made relative)
 * @example readReports("20-unit", "/r/.forge/ci/runs/x/reports/20-unit", "/tmp/wt").tests[0].id
 * // "parser › handles --"
 */
export function readReports(step: string, dir: string, tree: string): StepReports {
  let shown = "";
  try {
    const files = reportFiles(dir);
    const cases: RawCase[] = [];
    let total = 0;
    for (const f of files) {
      shown = relative(dir, f.path).split(sep).join("/");
      total += f.size;
      if (f.size > MAX_FILE_BYTES) throw new Refused(`${f.size} bytes, over the ${MAX_FILE_BYTES} a report may have`);
      if (total > MAX_TOTAL_BYTES) throw new Refused(`reports over ${MAX_TOTAL_BYTES} bytes in all`);
      const text = readCapped(f.path, MAX_FILE_BYTES);
      cases.push(...(f.kind === "xml" ? parseJUnit(text, tree) : parseTap(text)));
      if (cases.length > MAX_CASES) throw new Refused(`over ${MAX_CASES} test cases`);
    }
    return { tests: finish(step, cases, tree), error: null };
  } catch (err) {
    // Whatever a step left there (an unreadable file, bytes no parser takes) refuses its reports, never the run.
    const where = shown ? `report ${printableLine(shown, 80)}` : "reports";
    return { tests: [], error: `${step}: ${where}: refused: ${printableLine((err as Error).message, 160)}` };
  }
}

/** A test case before its id is made unique and its signature computed. */
export interface RawCase {
  parts: string[];
  file: string | null;
  name: string;
  outcome: TestOutcome;
  durationMs: number;
  failure: string;
}

/** The report files under `dir`, sorted, `*.xml` and `*.tap`; a symlink or a special file is refused. */
function reportFiles(dir: string): Array<{ path: string; size: number; kind: "xml" | "tap" }> {
  const out: Array<{ path: string; size: number; kind: "xml" | "tap" }> = [];
  const walk = (d: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(d).sort();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT" && depth === 0) return;
      throw new Refused(`cannot read ${relative(dir, d) || "."} (${(err as NodeJS.ErrnoException).code ?? "error"})`);
    }
    for (const n of names) {
      const p = join(d, n);
      const st = lstatSync(p);
      if (st.isDirectory()) {
        if (depth >= MAX_DIR_DEPTH) throw new Refused(`folders nested deeper than ${MAX_DIR_DEPTH}`);
        walk(p, depth + 1);
        continue;
      }
      const kind = /\.xml$/i.test(n) ? "xml" : /\.tap$/i.test(n) ? "tap" : null;
      if (kind === null) continue;
      if (!st.isFile()) throw new Refused(`${relative(dir, p)}: not a regular file (a symlink is not followed)`);
      out.push({ path: p, size: st.size, kind });
      if (out.length > MAX_FILES) throw new Refused(`over ${MAX_FILES} report files`);
    }
  };
  walk(dir, 0);
  return out;
}

/** A file's text, never more than `cap` bytes read (it may grow under us). */
function readCapped(path: string, cap: number): string {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    if (size > cap) throw new Refused(`${size} bytes, over the ${cap} a report may have`);
    const buf = Buffer.alloc(size);
    let n = 0;
    while (n < size) {
      const k = readSync(fd, buf, n, size - n, n);
      if (k === 0) break;
      n += k;
    }
    return buf.subarray(0, n).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

const XML_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** XML's five predefined entities and character references, decoded by hand (the parser expands none). */
function decodeXml(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]+);/g, (m, e: string) => {
    if (e[0] !== "#") return XML_ENTITIES[e] ?? m;
    const code = e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });
}

/**
 * The test cases of one JUnit XML document. No DTD is read: a DOCTYPE or an
 * entity declaration is refused before parsing, and the parser expands no
 * entity (the predefined ones are decoded after).
 */
export function parseJUnit(text: string, tree = ""): RawCase[] {
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) {
    throw new Refused("a DOCTYPE or entity declaration (no DTD is read from a report)");
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@_",
    processEntities: false,
    htmlEntities: false,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    maxNestedTags: MAX_DEPTH,
    isArray: (name) => name === "testsuite" || name === "testcase",
  });
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(text, true) as Record<string, unknown>;
  } catch (err) {
    const msg = (err as Error).message ?? String(err);
    if (/nest/i.test(msg)) throw new Refused(`elements nested deeper than ${MAX_DEPTH}`);
    throw new Refused(`not well-formed XML (${msg.split("\n")[0]})`);
  }
  const out: RawCase[] = [];
  const root = (doc.testsuites ?? doc) as Record<string, unknown>;
  if (typeof root !== "object" || root === null) return out;
  if (!("testsuites" in doc) && !("testsuite" in doc)) throw new Refused("no <testsuites> or <testsuite> element");
  walkSuite(root, [], null, tree, out);
  return out;
}

function attr(o: Record<string, unknown>, k: string): string | null {
  const v = o[`@_${k}`];
  return typeof v === "string" ? decodeXml(v) : null;
}

function asList(v: unknown): Record<string, unknown>[] {
  if (v === undefined || v === null) return [];
  const xs = Array.isArray(v) ? v : [v];
  return xs.map((x) => (typeof x === "object" && x !== null ? (x as Record<string, unknown>) : {}));
}

/** A node's text: its own text, or the text of its child elements (CDATA, nested text). */
function textOf(v: unknown): string {
  if (typeof v === "string") return decodeXml(v);
  if (Array.isArray(v)) return v.map(textOf).join("\n");
  if (typeof v === "object" && v !== null) {
    const o = v as Record<string, unknown>;
    const parts: string[] = [];
    const msg = attr(o, "message");
    if (msg) parts.push(msg);
    if (typeof o["#text"] === "string") parts.push(decodeXml(o["#text"]));
    return parts.join("\n");
  }
  return "";
}

function walkSuite(
  s: Record<string, unknown>,
  parts: string[],
  file: string | null,
  tree: string,
  out: RawCase[]
): void {
  for (const child of asList(s.testsuite)) {
    const name = attr(child, "name");
    const f = attr(child, "file") ?? attr(child, "filepath") ?? file;
    walkSuite(child, name ? [...parts, name] : parts, f, tree, out);
  }
  for (const c of asList(s.testcase)) {
    const name = clean(attr(c, "name") ?? "");
    const classname = clean(attr(c, "classname") ?? "");
    const f = attr(c, "file") ?? attr(c, "filepath") ?? file;
    const own = [...parts.map(clean)];
    // node:test's classname is always "test"; jest-junit's and mocha's repeat the suite or prefix the name.
    const last = own[own.length - 1];
    if (classname && classname !== "test" && classname !== last && !name.startsWith(classname)) own.push(classname);
    own.push(name);
    let outcome: TestOutcome = "pass";
    let failure = "";
    if (c.failure !== undefined) {
      outcome = "fail";
      failure = textOf(c.failure);
    } else if (c.error !== undefined) {
      outcome = "error";
      failure = textOf(c.error);
    } else if (c.skipped !== undefined) outcome = "skip";
    const sec = Number(attr(c, "time") ?? "0");
    const durationMs = Number.isFinite(sec) && sec > 0 ? Math.round(sec * 1000) : 0;
    out.push({ parts: dedupe(own), file: f ? fileOf(f, tree) : null, name, outcome, durationMs, failure });
  }
}

/** Consecutive equal parts once (a suite named as its file, a classname equal to its suite). */
function dedupe(parts: string[]): string[] {
  return parts.filter((p, i) => p !== "" && p !== parts[i - 1]);
}

/** A file attribute as the id shows it: relative to the tree when under it. */
function fileOf(f: string, tree: string): string {
  const c = clean(f);
  if (tree && (c === tree || c.startsWith(tree + "/"))) return c.slice(tree.length + 1) || ".";
  return c;
}

/** A name part: control characters as spaces, cut to MAX_NAME. */
function clean(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s
    .replace(/[\x00-\x1f\x7f]+/g, " ")
    .trim()
    .slice(0, MAX_NAME);
}

function printableLine(s: string, cap: number): string {
  return clean(s).slice(0, cap);
}

const TAP_POINT = /^(\s*)(not ok|ok)\b(?:\s+\d+)?(?:\s*-\s*|\s+)?(.*)$/;

/**
 * The test cases of a TAP stream (13 or 14, with node:test's indented
 * subtests): a point with indented points before it is a suite, their name
 * is prefixed with its; `# SKIP` and `# TODO` are skips; a failure's YAML
 * block is its failure text, its `duration_ms` the duration.
 */
export function parseTap(text: string): RawCase[] {
  const lines = text.split("\n");
  const pending: Array<{ indent: number; raw: RawCase }> = [];
  let last: RawCase | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, "");
    const m = TAP_POINT.exec(line);
    if (!m) {
      // A YAML block right after a point: `---` … `...`, indented.
      if (last && /^\s*---\s*$/.test(line)) {
        const body: string[] = [];
        for (i++; i < lines.length && !/^\s*\.\.\.\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
        const d = /^\s*duration_ms:\s*([0-9.]+)/m.exec(body.join("\n"));
        if (d) last.durationMs = Math.round(Number(d[1]) || 0);
        if (last.outcome === "fail") last.failure = body.join("\n");
      }
      continue;
    }
    const indent = m[1]!.replace(/\t/g, "    ").length;
    if (indent > 4 * MAX_DEPTH) throw new Refused(`subtests nested deeper than ${MAX_DEPTH}`);
    let desc = m[3]!;
    let directive: string | null = null;
    const h = /\s#\s*(SKIP|TODO)\b.*$|^#\s*(SKIP|TODO)\b.*$/i.exec(desc);
    if (h) {
      directive = (h[1] ?? h[2]!).toUpperCase();
      desc = desc.slice(0, h.index);
    }
    const name = clean(desc.replace(/\\#/g, "#"));
    const children = pending.filter((p) => p.indent > indent);
    if (children.length > 0) {
      // A suite: its children keep their place, their names prefixed with its.
      for (const c of children) {
        c.indent = indent;
        if (name) c.raw.parts.unshift(name);
      }
      last = null;
      continue;
    }
    const outcome: TestOutcome = directive ? "skip" : m[2] === "ok" ? "pass" : "fail";
    const raw: RawCase = { parts: [name], file: null, name, outcome, durationMs: 0, failure: "" };
    pending.push({ indent, raw });
    last = raw;
  }
  return pending.map((p) => ({ ...p.raw, parts: dedupe(p.raw.parts) }));
}

/** Ids made unique in report order, and each failure's signature. */
function finish(step: string, raws: readonly RawCase[], tree: string): TestCase[] {
  const seen = new Map<string, number>();
  return raws.map((r) => {
    const base = r.parts.join(TEST_SEPARATOR) + (r.file ? ` (${r.file})` : "");
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const id = n === 1 ? base : `${base} #${n}`;
    const failed = r.outcome === "fail" || r.outcome === "error";
    return {
      id,
      name: r.name,
      outcome: r.outcome,
      durationMs: r.durationMs,
      signature: failed ? testSignature(step, id, r.outcome, r.failure, tree) : null,
    };
  });
}

/**
 * A failed test's signature: the step's masking (signature.ts) over the
 * last lines of its failure text, hashed with the check's name and the kind
 * `test` (or `test-error`), so it never equals a step's.
 */
export function testSignature(step: string, id: string, outcome: TestOutcome, failure: string, tree = ""): string {
  const canonical = JSON.stringify({
    v: SIGNATURE_VERSION,
    check: `${step}${TEST_SEPARATOR}${id}`,
    kind: outcome === "error" ? "test-error" : "test",
    code: null,
    tail: maskedTail(failure, tree),
  });
  return `${SIGNATURE_VERSION}:${createHash("sha256").update(canonical).digest("hex").slice(0, 32)}`;
}

/**
 * `FORGE_TESTS_PATTERN`: a regular expression matching any of the tests'
 * own names (escaped, unanchored: jest's `-t` and mocha's `--grep` match the
 * full title, node:test's `--test-name-pattern` and vitest's `-t` a name).
 * @example testsPattern(["handles --", "a.b"]) // "handles --|a\\.b"
 */
export function testsPattern(names: readonly string[]): string {
  return [...new Set(names)].map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
}
