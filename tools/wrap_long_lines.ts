/**
 * Rewrap comment lines over 120 characters at word boundaries, for use after `pnpm format` (prettier
 * leaves comments alone). Only a line that is a comment from its first character to its end is
 * touched (a `//` line, or a line of a block comment, found by tools/strip_code.ts); code, and a
 * comment after code on its line, never are. The long line is split, not reflowed with its
 * neighbours: each piece keeps the line's own prefix (`// `, ` * `), so the text and its order are
 * unchanged. A one-line `/** … *\/` too long becomes a three-part block. A line is not broken before
 * a word that would start a new meaning at a line's start (`@tag`, `-`, `*`, `+`, `#`, `>`, `|`,
 * `1.`, the closing `*\/`), inside a `code span` or a `{@link …}`; a line with no such break point
 * (a long URL) is left as it is.
 *
 * Usage: `node tools/dist/wrap_long_lines.js [--check] [--root DIR] [FILE...]`: the files the style
 * check reads (under DIR, the current folder by default) or the FILEs; rewrites them in place and
 * says how many lines it split, or with --check only says so (exit 1 if any).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { MAX_LINE, sourceFiles } from "./check_style.js";
import { stripCode } from "./strip_code.js";

const width = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/** The code-unit offset of code point `n` in `s` (s.length if shorter). */
function offsetOf(s: string, n: number): number {
  let i = 0;
  for (const ch of s) {
    if (n-- <= 0) return i;
    i += ch.length;
  }
  return s.length;
}

/** Words that must not begin a comment line. */
const NO_LINE_START = /^(?:@|[-*+#>|]|\d+[.)]|\*\/)/;

/**
 * Split `text` (after the prefix) into pieces that fit in `max - width(prefix)`, breaking only at
 * a space that is a safe break point; undefined if it cannot be split.
 */
function splitText(text: string, room: number): string[] | undefined {
  const pieces: string[] = [];
  let rest = text;
  while (width(rest) > room) {
    const limit = offsetOf(rest, room);
    let at = -1;
    let ticks = 0;
    let braces = 0;
    for (let i = 0; i < rest.length; i++) {
      const c = rest[i];
      if (c === "`") ticks++;
      else if (c === "{") braces++;
      else if (c === "}") braces = Math.max(0, braces - 1);
      else if (c === " " && i > 0 && rest[i - 1] !== " " && ticks % 2 === 0 && braces === 0) {
        if (i > limit) break;
        const next = rest.slice(i).trimStart();
        if (next !== "" && !NO_LINE_START.test(next)) at = i;
      }
    }
    if (at <= 0) return pieces.length ? [...pieces, rest] : undefined;
    pieces.push(rest.slice(0, at).trimEnd());
    rest = rest.slice(at).trimStart();
  }
  return [...pieces, rest];
}

/** The wrapped lines for one comment-only `line`, or undefined to leave it. */
function wrapCommentLine(line: string, kind: "line" | "block", opensHere: boolean, closesHere: boolean) {
  const indent = /^\s*/.exec(line)![0];
  if (kind === "line") {
    const m = /^(\s*\/\/+ *)(.*)$/.exec(line);
    if (!m || line.trimStart().startsWith("///") || /@ts-|eslint|prettier-ignore/.test(line)) return undefined;
    const pieces = splitText(m[2]!, MAX_LINE - width(m[1]!));
    return pieces?.map((p) => m[1]! + p);
  }
  if (opensHere && closesHere) {
    const m = /^(\s*)(\/\*\*?) (.*?) ?\*\/\s*$/.exec(line);
    if (!m) return undefined;
    const pieces = splitText(m[3]!, MAX_LINE - width(`${indent} * `));
    return pieces && [`${indent}${m[2]}`, ...pieces.map((p) => `${indent} * ${p}`), `${indent} */`];
  }
  const m = opensHere ? /^(\s*\/\*\*? )(.*)$/.exec(line) : /^(\s*\* *|\s*)(.*)$/.exec(line);
  if (!m) return undefined;
  const rest = opensHere ? `${indent} * ` : m[1]!;
  const pieces = splitText(m[2]!, MAX_LINE - Math.max(width(m[1]!), width(rest)));
  return pieces?.map((p, i) => (i === 0 ? m[1]! : rest) + p);
}

/** `src` with its long comment lines split; `split` counts the lines that were. */
export function wrapLongLines(src: string): { text: string; split: number } {
  const { comments } = stripCode(src);
  const lines = src.split("\n");
  const out: string[] = [];
  let split = 0;
  let offset = 0;
  let c = 0;
  for (const line of lines) {
    const start = offset;
    const end = start + line.length;
    offset = end + 1;
    const body = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (width(body) <= MAX_LINE) {
      out.push(line);
      continue;
    }
    const first = start + (line.length - line.trimStart().length);
    while (c < comments.length && comments[c]!.end <= first) c++;
    const cm = comments[c];
    // The comment must hold the whole line: from its first character to the end.
    const whole = cm !== undefined && cm.start <= first && (cm.kind === "block" || cm.end === end);
    const closesHere = cm !== undefined && cm.kind === "block" && cm.end <= end;
    if (!whole || line.endsWith("\r") || (closesHere && src.slice(cm.end, end).trim() !== "")) {
      out.push(line);
      continue;
    }
    const wrapped = wrapCommentLine(line, cm.kind, cm.start === first, closesHere);
    if (!wrapped || wrapped.length < 2) out.push(line);
    else {
      out.push(...wrapped);
      split++;
    }
  }
  return { text: out.join("\n"), split };
}

const USAGE = "usage: wrap_long_lines [--check] [--root DIR] [FILE...]";

function main(argv: string[]): number {
  // The current folder by default, as prettier's `.`: a tool that writes must write where it is run.
  let root = process.cwd();
  let check = false;
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--check") check = true;
    else if (a === "--root" && argv[i + 1] !== undefined) root = resolve(argv[++i]!);
    else if (a.startsWith("-")) {
      process.stderr.write(`wrap_long_lines: unknown flag ${a}\n${USAGE}\n`);
      return 2;
    } else files.push(resolve(a));
  }
  let split = 0;
  let touched = 0;
  for (const file of files.length ? files : sourceFiles(root)) {
    const src = readFileSync(file, "utf8");
    const r = wrapLongLines(src);
    if (r.split === 0) continue;
    split += r.split;
    touched++;
    if (!check) writeFileSync(file, r.text);
  }
  process.stderr.write(`wrap_long_lines: ${split} comment lines ${check ? "to split" : "split"} in ${touched} files\n`);
  return check && split > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
