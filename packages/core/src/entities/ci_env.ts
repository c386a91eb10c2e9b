/**
 * `.forge/ci/ci.env`: the non-secret CI settings (spec/schema.md, ci-env).
 * One `KEY=value` per line; `#` comment lines and blank lines are kept, so
 * `formatCiEnv(parseCiEnv(text, file))` gives back the same bytes. The value
 * is the rest of the line, taken literally: no quotes, no `$` expansion, no
 * inline comments (a shell never reads this file, so nothing in it runs).
 *
 * Keys are either one of the lower-case settings (`runner`, `image`,
 * `timeout`, `base`) or an upper-case variable `[A-Z_][A-Z0-9_]*` handed to every
 * step. Any other key is an error, never a warning: a misspelt `runner`
 * would silently change the CI posture (SEC-07).
 */
import { InvalidFileError } from "../errors.js";
import { isCiStepName } from "./ci_step.js";

/** One line of `ci.env`: a `KEY=value` pair, or a comment / blank line kept verbatim. */
export type CiEnvEntry = { key: string; value: string } | { text: string };

/** What `ci.env` asks for, ready for the CI runner. */
export interface CiSettings {
  /** Where steps run: `local` (the default) or `docker`. */
  runner: "local" | "docker";
  /** The container image, for `runner=docker`. */
  image?: string;
  /** Per-step time limit in seconds. */
  timeout?: number;
  /** The default base branch of pull requests (`forge-pr create`); absent: `main`. */
  base?: string;
  /** How many CI runs (and release outputs) keep their bulky files; absent: 200. */
  keepRuns?: number;
  /** `cache=`: the folders (relative to the tree) the dependency cache keeps, e.g. `node_modules`. */
  cache?: string[];
  /** `cache_key=`: the files whose bytes key the cache (default: the lockfiles of `DEFAULT_CACHE_KEY` there are). */
  cacheKey?: string[];
  /** `cache_step=`: the step that installs (it runs only on a miss; its result is saved for the next tree). */
  cacheStep?: string;
  /** `keep_caches=`: how many cache entries are kept (the least recently used go first); absent: 4. */
  keepCaches?: number;
  /** `runner=adapter:CMD`: the command (split on spaces, no shell) of an external CI adapter (spec/hosts.md). */
  adapter?: string[];
  /** `hosts=`: a GNU parallel sshlogin file (relative to the repository's top): runs fan out over those hosts. */
  hosts?: string;
  /** The upper-case variables, passed to every step on top of the caller's environment. */
  env: Record<string, string>;
}

/** The lower-case settings `ci.env` knows. */
export const CI_SETTINGS: readonly string[] = [
  "runner",
  "image",
  "timeout",
  "base",
  "keep_runs",
  "cache",
  "cache_key",
  "cache_step",
  "keep_caches",
  "hosts",
];

/** The files that key the cache when `cache_key` is not given (those the tree has). */
export const DEFAULT_CACHE_KEY: readonly string[] = [
  "package-lock.json",
  "npm-shrinkwrap.json",
  "pnpm-lock.yaml",
  "yarn.lock",
];

const ENV_KEY = /^[A-Z_][A-Z0-9_]*$/;
const PAIR = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/;

/**
 * Parse `ci.env`.
 * @param text the file's text
 * @param file the file's name for errors (relative to the repo)
 * @returns one entry per line (a missing final newline is not an entry)
 * @throws InvalidFileError naming the file and the line: a line that is not
 *   `KEY=value`, `#…` or blank; an unknown lower-case key; a duplicate key; a
 *   bad `runner` / `image` / `timeout` value; a carriage return
 * @example parseCiEnv("# posture\nrunner=docker\n", "ci.env") // [{text: "# posture"},
 * {key: "runner", value: "docker"}]
 */
export function parseCiEnv(text: string, file: string): CiEnvEntry[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const seen = new Set<string>();
  return lines.map((line, i) => {
    const bad = (what: string): never => {
      throw new InvalidFileError(file, `line ${i + 1}: ${what}`);
    };
    if (line.includes("\r")) bad("carriage return (use LF line endings)");
    if (line.trim() === "" || line.startsWith("#")) return { text: line };
    const m = PAIR.exec(line);
    if (!m) bad("expected KEY=value, a '#' comment or a blank line");
    const key = m![1]!;
    const value = m![2]!;
    if (!ENV_KEY.test(key) && !CI_SETTINGS.includes(key))
      bad(`unknown setting '${key.slice(0, 40)}' (settings: ${CI_SETTINGS.join(", ")}; variables: UPPER_CASE)`);
    if (seen.has(key)) bad(`duplicate key '${key}'`);
    seen.add(key);
    const problem = checkSetting(key, value);
    if (problem) bad(`'${key}': ${problem}`);
    return { key, value };
  });
}

/**
 * Write `ci.env` back: each entry on its own line, ending in `\n`.
 * @param entries as returned by `parseCiEnv` (possibly edited)
 * @returns the file's text
 * @throws TypeError for a pair whose key or value cannot be written on one line
 * @example formatCiEnv([{text: "# posture"}, {key: "runner", value: "docker"}]) // "# posture\nrunner=docker\n"
 */
export function formatCiEnv(entries: readonly CiEnvEntry[]): string {
  let out = "";
  for (const e of entries) {
    if ("key" in e) {
      if (!PAIR.test(`${e.key}=${e.value}`) || /[\r\n]/.test(e.value))
        throw new TypeError(`cannot write ci.env key ${JSON.stringify(e.key)}`);
      out += `${e.key}=${e.value}\n`;
    } else {
      if (/[\r\n]/.test(e.text) || (e.text.trim() !== "" && !e.text.startsWith("#")))
        throw new TypeError("a ci.env text line must be blank or start with '#'");
      out += `${e.text}\n`;
    }
  }
  return out;
}

/**
 * The settings and variables of parsed `ci.env` entries.
 * @param entries as returned by `parseCiEnv` (already checked)
 * @returns runner (default `local`), image, timeout, base and the step variables
 * @example ciSettings([{key: "runner", value: "docker"}, {key: "CI", value: "1"}]) //
 * {runner: "docker", env: {CI: "1"}}
 */
export function ciSettings(entries: readonly CiEnvEntry[]): CiSettings {
  const out: CiSettings = { runner: "local", env: {} };
  for (const e of entries) {
    if (!("key" in e)) continue;
    if (e.key === "runner" && e.value.startsWith("adapter:")) out.adapter = e.value.slice(8).split(" ").filter(Boolean);
    else if (e.key === "runner") out.runner = e.value as CiSettings["runner"];
    else if (e.key === "image") out.image = e.value;
    else if (e.key === "timeout") out.timeout = Number(e.value);
    else if (e.key === "base") out.base = e.value;
    else if (e.key === "keep_runs") out.keepRuns = Number(e.value);
    else if (e.key === "cache") out.cache = e.value.split(" ").filter(Boolean);
    else if (e.key === "cache_key") out.cacheKey = e.value.split(" ").filter(Boolean);
    else if (e.key === "cache_step") out.cacheStep = e.value;
    else if (e.key === "keep_caches") out.keepCaches = Number(e.value);
    else if (e.key === "hosts") out.hosts = e.value;
    else out.env[e.key] = e.value;
  }
  return out;
}

// --- internal ---

/** Space-separated paths inside the tree: relative, no `..`, not `.git` or `.forge`. */
function checkTreePaths(value: string): string | undefined {
  const paths = value.split(" ").filter(Boolean);
  if (paths.length === 0) return "expected one or more paths relative to the tree, separated by spaces";
  for (const p of paths) {
    const parts = p.replace(/\/+$/, "").split("/");
    if (p.startsWith("/") || parts.some((x) => x === ".." || x === "." || x === "") || /[\\\t]/.test(p))
      return `'${p.slice(0, 60)}': expected a path relative to the tree (no '..', no leading '/')`;
    if (parts[0] === ".git" || parts[0] === ".forge") return `'${p.slice(0, 60)}': not inside .git or .forge`;
  }
  return undefined;
}

function checkSetting(key: string, value: string): string | undefined {
  if (key === "runner" && value !== "local" && value !== "docker" && !/^adapter:\s*\S/.test(value))
    return "expected local, docker or adapter:CMD";
  if (key === "image" && (value.trim() === "" || value !== value.trim()))
    return "expected an image name without spaces around it";
  if (key === "timeout" && !/^[1-9][0-9]{0,6}$/.test(value)) return "expected a whole number of seconds ≥ 1";
  if ((key === "keep_runs" || key === "keep_caches") && !/^[1-9][0-9]{0,6}$/.test(value))
    return "expected a whole number ≥ 1";
  if (key === "cache" || key === "cache_key") return checkTreePaths(value);
  if (key === "hosts" && (value.trim() === "" || value !== value.trim() || /[\t\\]/.test(value)))
    return "expected a hosts file's path (one sshlogin a line)";
  if (key === "cache_step" && !isCiStepName(value)) return "expected a step's name, e.g. 05-install";
  // A branch name: git's own check (check-ref-format --branch) runs where it is used.
  if (key === "base" && (value === "" || value.startsWith("-") || /[\s\\]/.test(value)))
    return "expected a branch name";
  return undefined;
}
