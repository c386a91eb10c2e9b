/**
 * A declared check command as an argv array. The flag value is split into
 * words like a shell would split them (quotes and backslashes), but nothing
 * is expanded and no shell ever runs it (SEC-04); a JSON array of strings
 * is taken as it is.
 */
import { UsageError } from "@forge/core";

/**
 * Split a check command into argv.
 * @throws UsageError for an empty command, an unclosed quote or a bad JSON array
 * @example parseCheckArgv(`node -e "process.exit(1)"`) // ["node", "-e", "process.exit(1)"]
 */
export function parseCheckArgv(cmd: string): string[] {
  const t = cmd.trim();
  if (t.startsWith("[")) {
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch {
      throw new UsageError("--check: not a JSON array of strings");
    }
    if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === "string" && x !== ""))
      throw new UsageError("--check: expected a non-empty JSON array of strings");
    return v as string[];
  }
  const out: string[] = [];
  let cur = "";
  let has = false;
  let q: "'" | '"' | null = null;
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (q === "'") {
      if (c === "'") q = null;
      else cur += c;
    } else if (q === '"') {
      if (c === '"') q = null;
      else if (c === "\\" && i + 1 < t.length && '"\\'.includes(t[i + 1]!)) cur += t[++i];
      else cur += c;
    } else if (c === "'" || c === '"') {
      q = c;
      has = true;
    } else if (c === "\\" && i + 1 < t.length) {
      cur += t[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has || cur !== "") out.push(cur);
      cur = "";
      has = false;
    } else cur += c;
  }
  if (q) throw new UsageError("--check: unclosed quote");
  if (has || cur !== "") out.push(cur);
  if (out.length === 0 || out[0] === "") throw new UsageError("--check: empty command");
  return out;
}

/** The display name of a check: its argv joined by spaces (how reports name it). */
export function checkName(argv: readonly string[]): string {
  return argv.join(" ");
}
