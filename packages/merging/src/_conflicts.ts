/**
 * `git apply --check` stderr → the list of files that did not apply, in
 * the order git named them, each once. Only the file names are kept: no
 * line of the patch or of the files is ever quoted (SEC-10). A write
 * beyond a symlink is not a conflict: git refuses it, and so does forge. Names git
 * quoted (`"caf\\303\\251.txt"`) are unquoted.
 */
import { unquoteC } from "./_patch_paths.js";

/** What `git apply` says after `error: <file>: ` when that file is what went wrong. */
const FILE_ERRORS = [
  "patch does not apply",
  "does not exist in index",
  "does not exist in working directory",
  "already exists in index",
  "already exists in working directory",
  "does not match index",
  "No such file or directory",
  "wrong type",
  "has type [0-7]+, expected [0-7]+",
].join("|");

const PATTERNS: RegExp[] = [
  /^error: patch failed: (.+):\d+$/,
  new RegExp(`^error: (.+): (?:${FILE_ERRORS})$`),
  /^error: (.+): already exists in (?:index|working directory)$/,
];

/**
 * The conflicting files named in `git apply` stderr.
 * @param stderr git's stderr
 * @returns the paths, each once, in git's order (empty if git named none)
 * @example conflictFiles("error: patch failed: a.txt:3\nerror: a.txt: patch does not apply\n") // ["a.txt"]
 */
export function conflictFiles(stderr: string): string[] {
  const out: string[] = [];
  for (const line of stderr.split("\n")) {
    for (const re of PATTERNS) {
      const m = re.exec(line.trimEnd());
      if (!m) continue;
      const file = unquoteC(m[1]!);
      if (!out.includes(file)) out.push(file);
      break;
    }
  }
  return out;
}
