/**
 * `pnpm style`: the house rules a compiler does not check (DESIGN §2, STYLE "The house"), in the
 * manner of Deno std's `_tools/` checks. It fails (exit 1, one line per violation
 * `file:line: rule: what`, then a count) on:
 * - `library-io`: a `console.` call, or `process.` exit, exitCode, stdout, stderr, stdin, argv, on,
 *   once, emitWarning, abort or chdir, in the non-test files of the libraries core, kernel, evidence
 *   and contract (tests `*_test.ts`, fixtures `_fixture*.ts` and `testing.ts` helpers excepted).
 *   Comments, strings and regular expressions do not count (tools/strip_code.ts blanks them);
 * - `imports-executable`: a package importing an executable package (one whose package.json has
 *   `"forge": {"bin": …}`), by a static or dynamic import or a subpath of it in any file under its
 *   src/ (tests too), or listing it in its package.json dependencies; a package may import itself.
 *   test/ and tools/ are not packages and may import anything;
 * - `line-length`: a line over 120 characters (code points, not bytes).
 * It reads the .ts files under packages/<name>/src, test and tools, and the .mjs files under
 * scripts, never those under dist/, node_modules/ or test/tmp/.
 *
 * Usage: `node tools/dist/check_style.js [--root DIR] [PATH...]`: DIR is the tree to check (the
 * repository by default); PATHs, if given, limit the report to files under them. Exit 0 and a
 * one-line summary on stderr when clean, 1 on a violation, 2 on a usage error.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { lineIndex, stripCode } from "./strip_code.js";

export const MAX_LINE = 120;
export const LIBRARIES = ["core", "kernel", "evidence", "contract"];
export const RULES = ["library-io", "imports-executable", "line-length"] as const;
export type Rule = (typeof RULES)[number];

export interface Violation {
  /** Relative to the root, with `/`. */
  file: string;
  line: number;
  rule: Rule;
  what: string;
}

const SKIP_DIRS = new Set(["dist", "node_modules", ".git"]);
const PROCESS_MEMBERS = "exit|exitCode|stdout|stderr|stdin|argv|on|once|emitWarning|abort|chdir";
const CONSOLE = /(?<![\w$])console\s*(?:\.|\[)/g;
const PROCESS = new RegExp(`(?<![\\w$])process\\s*\\.\\s*(${PROCESS_MEMBERS})(?![\\w$])`, "g");
/** What precedes a module specifier: `from`, `import`, `import(`, `require(`. */
const BEFORE_SPECIFIER = /(?:(?<![\w$.])(?:from|import)|(?<![\w$.])(?:import|require)\s*\()\s*$/;
const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"];

/** Every file under `dir` (absolute) whose name ends with `ext`, skipping dist/, node_modules/ and `skip`. */
function filesUnder(dir: string, ext: string, skip: (p: string) => boolean = () => false): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (skip(p)) continue;
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) out.push(...filesUnder(p, ext, skip));
    } else if (e.isFile() && e.name.endsWith(ext)) out.push(p);
  }
  return out;
}

interface Pkg {
  dir: string;
  name: string;
  bin?: string;
  json: Record<string, unknown>;
  text: string;
}

function packagesOf(root: string): Pkg[] {
  const base = join(root, "packages");
  if (!existsSync(base)) return [];
  const out: Pkg[] = [];
  for (const d of readdirSync(base).sort()) {
    const file = join(base, d, "package.json");
    if (!existsSync(file)) continue;
    const text = readFileSync(file, "utf8");
    const json = JSON.parse(text) as Record<string, unknown>;
    const forge = json.forge as { bin?: unknown } | undefined;
    const bin = typeof forge?.bin === "string" ? forge.bin : undefined;
    out.push({ dir: join(base, d), name: typeof json.name === "string" ? json.name : `@forge/${d}`, bin, json, text });
  }
  return out;
}

/** The files the style rules read (absolute paths): see the module's comment. */
export function sourceFiles(root: string, pkgs: Array<{ dir: string }> = packagesOf(root)): string[] {
  const tmp = join(root, "test", "tmp");
  return [
    ...pkgs.flatMap((p) => filesUnder(join(p.dir, "src"), ".ts")),
    ...filesUnder(join(root, "test"), ".ts", (p) => p === tmp),
    ...filesUnder(join(root, "tools"), ".ts"),
    ...filesUnder(join(root, "scripts"), ".mjs"),
  ];
}

/** Whether a library file is a test or test support (outside the no-I/O rule). */
function isTestFile(file: string): boolean {
  const name = file.slice(file.lastIndexOf(sep) + 1);
  return (
    name.endsWith("_test.ts") ||
    name.startsWith("_fixture") ||
    name === "testing.ts" ||
    file.split(sep).includes("testing")
  );
}

const codePoints = (line: string): number => {
  let n = 0;
  for (const _ of line) n++;
  return n;
};

/** Check the tree at `root`; the violations, sorted by file, line and rule. */
export function checkStyle(root: string): { violations: Violation[]; files: number } {
  const rel = (p: string) => relative(root, p).split(sep).join("/");
  const violations: Violation[] = [];
  const add = (file: string, line: number, rule: Rule, what: string) => {
    violations.push({ file: rel(file), line, rule, what });
  };
  const pkgs = packagesOf(root);
  const executables = new Map(pkgs.filter((p) => p.bin).map((p) => [p.name, p.bin!]));
  const files = sourceFiles(root, pkgs);
  const ownerOf = (file: string) => pkgs.find((p) => file.startsWith(join(p.dir, "src") + sep));
  for (const file of files) {
    const src = readFileSync(file, "utf8");
    const lines = src.split("\n");
    lines.forEach((l, i) => {
      const line = l.endsWith("\r") ? l.slice(0, -1) : l;
      if (line.length <= MAX_LINE) return;
      const n = codePoints(line);
      if (n > MAX_LINE) add(file, i + 1, "line-length", `${n} characters (at most ${MAX_LINE})`);
    });
    const owner = ownerOf(file);
    if (!owner) continue;
    const library = LIBRARIES.some((l) => owner.dir === join(root, "packages", l));
    if (!library && executables.size === 0) continue;
    const { code, literals } = stripCode(src);
    const lineAt = lineIndex(src);
    if (library && !isTestFile(file)) {
      for (const m of code.matchAll(CONSOLE)) add(file, lineAt(m.index), "library-io", "a console call in a library");
      for (const m of code.matchAll(PROCESS)) add(file, lineAt(m.index), "library-io", `process.${m[1]} in a library`);
    }
    for (const lit of literals) {
      const m = /^(@forge\/[^/]+)(?:\/|$)/.exec(lit.value);
      if (!m || m[1] === owner.name || !executables.has(m[1]!)) continue;
      if (!BEFORE_SPECIFIER.test(code.slice(Math.max(0, lit.start - 40), lit.start))) continue;
      const what = `imports ${lit.value}, an executable (${executables.get(m[1]!)})`;
      add(file, lineAt(lit.start), "imports-executable", what);
    }
  }
  for (const p of pkgs) {
    const file = join(p.dir, "package.json");
    for (const field of DEPENDENCY_FIELDS) {
      const deps = p.json[field];
      if (typeof deps !== "object" || deps === null) continue;
      for (const dep of Object.keys(deps)) {
        if (dep === p.name || !executables.has(dep)) continue;
        const at = p.text.indexOf(JSON.stringify(dep) + ":", p.text.indexOf(JSON.stringify(field)));
        const line = at < 0 ? 1 : lineIndex(p.text)(at);
        add(file, line, "imports-executable", `${field} lists ${dep}, an executable (${executables.get(dep)})`);
      }
    }
  }
  violations.sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.rule.localeCompare(b.rule)
  );
  return { violations, files: files.length + pkgs.length };
}

/** `file:line: rule: what`. */
export const formatViolation = (v: Violation): string => `${v.file}:${v.line}: ${v.rule}: ${v.what}`;

function main(argv: string[]): number {
  let root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
  const paths: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--root" && argv[i + 1] !== undefined) root = resolve(argv[++i]!);
    else if (a === "-h" || a === "--help") {
      process.stdout.write("usage: check_style [--root DIR] [PATH...]\n");
      return 0;
    } else if (a.startsWith("-")) {
      process.stderr.write(`check_style: unknown flag ${a}\nusage: check_style [--root DIR] [PATH...]\n`);
      return 2;
    } else paths.push(resolve(a));
  }
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    process.stderr.write(`check_style: no such folder: ${root}\n`);
    return 2;
  }
  const { violations, files } = checkStyle(root);
  const wanted =
    paths.length === 0
      ? violations
      : violations.filter((v) => {
          const abs = join(root, v.file);
          return paths.some((p) => abs === p || abs.startsWith(p.endsWith(sep) ? p : p + sep));
        });
  if (wanted.length === 0) {
    process.stderr.write(`style: ${files} files checked, no violations\n`);
    return 0;
  }
  const counts = RULES.map((r) => `${wanted.filter((v) => v.rule === r).length} ${r}`).join(", ");
  const total = `${wanted.length} violation${wanted.length === 1 ? "" : "s"} (${counts})`;
  process.stdout.write(wanted.map(formatViolation).join("\n") + `\n${total}\n`);
  return 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
