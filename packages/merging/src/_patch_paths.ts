/**
 * The paths a patch touches, read the way `git apply` reads them, and the
 * refusal of the dangerous ones before git sees the patch (SEC-05): an
 * absolute path, a `..` component, or a `.git` component in any case (a
 * patch that writes `.git/hooks/…` or `.git/config` could run code later).
 * git's own path checks stay on as the second line of defence.
 */
import { ForgeError, printable } from "@forge/core";

/**
 * Every path named by the patch's file headers: `diff --git` (both sides),
 * `---`/`+++` (traditional diffs too: git applies those), `rename`/`copy`
 * `from`/`to`. Hunk bodies are skipped by counting their lines, so a
 * removed line that reads `-- x` is never taken for a header.
 * @param text the patch (`git format-patch` output or a plain diff)
 * @returns the raw paths, prefixes included, in order of appearance
 * @example patchPaths("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n") // ["a/x", "b/x", "a/x", "b/x"]
 */
export function patchPaths(text: string): string[] {
  const out: string[] = [];
  const lines = text.split("\n");
  let oldLeft = 0;
  let newLeft = 0;
  for (let raw of lines) {
    if (raw.endsWith("\r")) raw = raw.slice(0, -1);
    if (oldLeft > 0 || newLeft > 0) {
      const c = raw[0];
      if (c === " " || raw === "") {
        oldLeft--;
        newLeft--;
        continue;
      }
      if (c === "-") {
        oldLeft--;
        continue;
      }
      if (c === "+") {
        newLeft--;
        continue;
      }
      if (c === "\\") continue;
      // A short hunk: fall through and read the line as a header.
      oldLeft = newLeft = 0;
    }
    const hunk = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(raw);
    if (hunk) {
      oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      newLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      continue;
    }
    if (raw.startsWith("diff --git ")) out.push(...gitHeaderPaths(raw.slice(11)));
    else if (raw.startsWith("--- ") || raw.startsWith("+++ ")) {
      const p = headerPath(raw.slice(4));
      if (p !== "/dev/null") out.push(p);
    } else {
      const m = /^(?:rename|copy) (?:from|to) (.*)$/.exec(raw);
      if (m) out.push(unquoteC(m[1]!));
    }
  }
  return out;
}

/**
 * Why a path from a patch is refused, or `null` when it is fine. `prefixed`
 * paths (from `diff --git`, `---`, `+++`) are also checked with their first
 * component stripped, as `git apply -p1` strips it.
 * @example refusal("a/.GIT/hooks/pre-commit", true) // "a .git component"
 */
export function refusal(path: string, prefixed: boolean): string | null {
  for (const p of prefixed ? [path, stripOne(path)] : [path]) {
    if (p === "" || p.includes("\0")) return "an empty path";
    if (p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith("\\")) return "an absolute path";
    for (const part of p.split(/[\\/]/)) {
      if (part === "..") return "a '..' component";
      // NTFS and HFS+ read ".git." and ".git " as ".git".
      if (part.replace(/[. ]+$/, "").toLowerCase() === ".git") return "a .git component";
    }
  }
  return null;
}

/**
 * Refuse a patch that names a dangerous path.
 * @throws ForgeError (E_UNSAFE_PATCH, exit 1) naming the first such path
 */
export function checkPatchPaths(text: string): void {
  for (const p of patchPaths(text)) {
    const why = refusal(p, true);
    if (why) {
      throw new ForgeError(`refused: the patch names '${shown(p)}' (${why}); nothing was applied`, "E_UNSAFE_PATCH", 1);
    }
  }
}

// --- internal ---

/** `a/x b/x`, or quoted sides: both paths. */
function gitHeaderPaths(s: string): string[] {
  if (s.startsWith('"')) {
    const end = closingQuote(s);
    const first = unquoteC(s.slice(0, end + 1));
    return [first, headerPath(s.slice(end + 2))];
  }
  const q = s.indexOf(' "');
  if (q >= 0) return [s.slice(0, q), unquoteC(s.slice(q + 1))];
  // Unquoted: `a/<p> b/<p>`; the split is ambiguous only with spaces, so take every candidate.
  const mid = s.length % 2 === 1 ? (s.length - 1) / 2 : -1;
  if (mid > 0 && s[mid] === " " && stripOne(s.slice(0, mid)) === stripOne(s.slice(mid + 1))) {
    return [s.slice(0, mid), s.slice(mid + 1)];
  }
  return s.split(" ");
}

/** A `---`/`+++` path: quoted, or up to a tab (a timestamp may follow). */
function headerPath(s: string): string {
  if (s.startsWith('"')) return unquoteC(s.slice(0, closingQuote(s) + 1));
  const tab = s.indexOf("\t");
  return (tab >= 0 ? s.slice(0, tab) : s).replace(/\s+$/, "");
}

function closingQuote(s: string): number {
  for (let i = 1; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === '"') return i;
  }
  return s.length - 1;
}

/**
 * git's C-style quoting (`"a\\tb\\303\\251"`), undone; other text is returned as is.
 * @example unquoteC('"caf\\303\\251.txt"') // "café.txt"
 */
export function unquoteC(s: string): string {
  if (!(s.startsWith('"') && s.endsWith('"') && s.length >= 2)) return s;
  const bytes: number[] = [];
  const body = s.slice(1, -1);
  const esc: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '"': 34, "\\": 92 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== "\\") {
      bytes.push(...Buffer.from(c));
      continue;
    }
    const n = body[++i] ?? "";
    if (/[0-7]/.test(n)) {
      bytes.push(parseInt(body.slice(i, i + 3), 8) & 255);
      i += 2;
    } else bytes.push(esc[n] ?? n.charCodeAt(0));
  }
  return Buffer.from(bytes).toString("utf8");
}

/** `git apply -p1`: drop everything up to the first `/`. */
function stripOne(p: string): string {
  const i = p.indexOf("/");
  return i < 0 ? p : p.slice(i + 1);
}

function shown(s: string): string {
  return printable(s, 80);
}
