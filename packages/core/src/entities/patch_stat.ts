/**
 * Files changed, additions and deletions, read from a pull request's
 * `patch.diff` (`git format-patch` output: one mail per commit). Only lines
 * inside hunks count, and a hunk ends when the line counts of its `@@`
 * header are used up, so a commit message line that starts with `+` or `-`,
 * the `---` separator and the diffstat never count. A file changed by two
 * commits is one entry whose counts are the sums (what the patch holds, not
 * a fresh diff of base and head).
 */

/** One file of a patch, in gh's `files` shape. */
export interface FileStat {
  additions: number;
  deletions: number;
  path: string;
}

/** What a patch changes. */
export interface PatchStat {
  /** One entry per path (the new path of a rename), sorted by path. */
  files: FileStat[];
  additions: number;
  deletions: number;
}

/**
 * Count what a patch changes.
 * @param text the patch (`format-patch` mails, or a plain `git diff`)
 * @returns the files by path with their added and deleted lines, and the totals
 * @example patchStat("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n") //
 * {files: [{additions: 1, deletions: 1, path: "x"}], additions: 1, deletions: 1}
 */
export function patchStat(text: string): PatchStat {
  const byPath = new Map<string, FileStat>();
  let cur: Section | undefined;
  let oldLeft = 0;
  let newLeft = 0;
  const finish = (): void => {
    if (!cur) return;
    const path =
      cur.to ??
      (cur.plus !== undefined && cur.plus !== DEV_NULL ? cur.plus : undefined) ??
      (cur.minus !== DEV_NULL ? cur.minus : undefined) ??
      cur.header;
    const f = byPath.get(path) ?? { additions: 0, deletions: 0, path };
    f.additions += cur.additions;
    f.deletions += cur.deletions;
    byPath.set(path, f);
    cur = undefined;
  };
  for (const line of text.split("\n")) {
    if (cur && (oldLeft > 0 || newLeft > 0)) {
      const c = line.charCodeAt(0);
      if (c === PLUS && newLeft > 0) {
        cur.additions++;
        newLeft--;
        continue;
      }
      if (c === MINUS && oldLeft > 0) {
        cur.deletions++;
        oldLeft--;
        continue;
      }
      // A context line; an empty one is a context line whose space an editor trimmed.
      if ((c === SPACE || line === "") && oldLeft > 0 && newLeft > 0) {
        oldLeft--;
        newLeft--;
        continue;
      }
      if (c === BACKSLASH) continue; // "\ No newline at end of file"
      oldLeft = newLeft = 0; // a short hunk: read the line as a header
    }
    if (cur && line.charCodeAt(0) === BACKSLASH) continue; // after a hunk's last line
    if (MAIL.test(line)) {
      finish();
      continue;
    }
    if (line.startsWith("diff --git ")) {
      finish();
      cur = { header: headerPath(line.slice(11)), additions: 0, deletions: 0, hunks: 0 };
      continue;
    }
    if (!cur) continue;
    if (line.startsWith("@@ ")) {
      const m = HUNK.exec(line);
      if (!m) continue;
      cur.hunks++;
      oldLeft = m[1] === undefined ? 1 : Number(m[1]);
      newLeft = m[2] === undefined ? 1 : Number(m[2]);
      continue;
    }
    if (cur.hunks > 0) continue; // between hunks, or the signature after the last one
    if (line.startsWith("rename to ") || line.startsWith("copy to "))
      cur.to = unquote(line.slice(line.indexOf(" to ") + 4));
    else if (line.startsWith("+++ ")) cur.plus = sidePath(line.slice(4));
    else if (line.startsWith("--- ")) cur.minus = sidePath(line.slice(4));
  }
  finish();
  const files = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  let additions = 0;
  let deletions = 0;
  for (const f of files) {
    additions += f.additions;
    deletions += f.deletions;
  }
  return { files, additions, deletions };
}

/**
 * Undo git's C-style path quoting (`"a/\303\251.txt"` → `a/é.txt`); an
 * unquoted path is returned as it is.
 * @example unquote('"x\\ty"') // "x\ty"
 */
export function unquote(s: string): string {
  if (!s.startsWith('"')) return s;
  const bytes: number[] = [];
  for (let i = 1; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '"') break;
    if (ch !== "\\") {
      for (const b of Buffer.from(ch, "utf8")) bytes.push(b);
      continue;
    }
    const next = s[++i] ?? "";
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(s.slice(i, i + 3), 8) & 0xff);
      i += 2;
    } else bytes.push((ESCAPES[next] ?? next).charCodeAt(0));
  }
  return Buffer.from(bytes).toString("utf8");
}

// --- internal ---

interface Section {
  /** The path from the `diff --git` line (when nothing better is given). */
  header: string;
  /** `rename to` / `copy to`. */
  to?: string;
  plus?: string;
  minus?: string;
  additions: number;
  deletions: number;
  hunks: number;
}

const PLUS = 43;
const MINUS = 45;
const SPACE = 32;
const BACKSLASH = 92;
const DEV_NULL = "/dev/null";
const MAIL = /^From [0-9a-f]{40} Mon Sep 17 00:00:00 2001$/;
const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;
const ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  t: "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  '"': '"',
  "\\": "\\",
};

/** `a/x` → `x` from a `---`/`+++` line (git adds a tab after a path with a space). */
function sidePath(s: string): string {
  if (s.startsWith('"')) return stripSide(unquote(s));
  const t = s.endsWith("\t") ? s.slice(0, -1) : s;
  return t === DEV_NULL ? t : stripSide(t);
}

function stripSide(p: string): string {
  return p.startsWith("a/") || p.startsWith("b/") ? p.slice(2) : p;
}

/** The path of `a/<p> b/<p>` (the two halves are equal unless renamed, when `rename to` names it). */
function headerPath(rest: string): string {
  if (rest.startsWith('"')) {
    const end = closingQuote(rest);
    const second = rest.slice(end + 2);
    return stripSide(unquote(second.startsWith('"') ? second : rest.slice(0, end + 1)));
  }
  const n = (rest.length - 5) / 2;
  if (
    Number.isInteger(n) &&
    rest.startsWith("a/") &&
    rest.slice(2 + n, 5 + n) === " b/" &&
    rest.slice(2, 2 + n) === rest.slice(5 + n)
  )
    return rest.slice(5 + n);
  const b = rest.lastIndexOf(" b/");
  return b >= 0 ? rest.slice(b + 3) : rest;
}

function closingQuote(s: string): number {
  for (let i = 1; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === '"') return i;
  }
  return s.length - 1;
}
