/**
 * Helpers for the security fixtures: a store with one valid issue and one
 * hostile file written straight into `.forge/issues/<id>/issue.md`, a
 * snapshot of the store to prove nothing changed, and the one-line error
 * check every refusal must pass.
 */
import { createHash, randomUUID } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ExecutionContext } from "ava";
import { jsonl, run, tempRepo, type Ran } from "./run.js";

/** The valid issue every hostile store also holds. */
export const VALID_TITLE = "a valid issue";

/** A temp repo with one valid issue (created with the CLI) and a fresh id for the hostile one. */
export interface HostileRepo {
  cwd: string;
  /** The hostile issue's id (its folder name). */
  id: string;
  /** Its owning file as messages show it: `.forge/issues/<id>/issue.md`. */
  file: string;
  /** Its owning file's absolute path. */
  abs: string;
  /** The valid issue's id. */
  validId: string;
}

/** Make the repo and the hostile issue's folder (empty: the caller writes the file). */
export async function hostileRepo(): Promise<HostileRepo> {
  const cwd = tempRepo("forge-sec-");
  const c = await run("forge-issue", ["create", "-t", VALID_TITLE, "--json", "id"], { cwd });
  if (c.code !== 0) throw new Error(`create failed: ${c.stderr}`);
  const validId = (jsonl(c.stdout)[0] as { id: string }).id;
  const id = randomUUID();
  const file = `.forge/issues/${id}/issue.md`;
  mkdirSync(join(cwd, ".forge", "issues", id));
  return { cwd, id, file, abs: join(cwd, file), validId };
}

/**
 * The canonical frontmatter lines of a valid issue, without the fences, so a
 * case can drop a field or append a hostile one.
 */
export function issueFields(id: string, omit: string[] = []): string {
  const fields: Array<[string, string]> = [
    ["title", "hostile"],
    ["id", id],
    ["state", "open"],
    ["author", "mallory"],
    ["createdAt", '"2026-01-01T00:00:00Z"'],
  ];
  return fields
    .filter(([k]) => !omit.includes(k))
    .map(([k, v]) => `${k}: ${v}\n`)
    .join("");
}

/** Write a hostile issue file: `---<lang>\n<frontmatter>---\n<body>`. */
export function writeIssue(r: HostileRepo, frontmatter: string, opts: { lang?: string; body?: string } = {}): void {
  writeFileSync(r.abs, `---${opts.lang ?? ""}\n${frontmatter}---\n${opts.body ?? "body\n"}`);
}

/**
 * Every path under `.forge/` (symlinks not followed) with what it is: a
 * file's sha256, a symlink's target, or `dir`. The rebuildable cache
 * (`.forge/.cache/`) is left out: readers may refresh it (DESIGN §3).
 */
export function snapshot(cwd: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(cwd, rel)).sort()) {
      const p = `${rel}/${name}`;
      if (p === ".forge/.cache") continue;
      const st = lstatSync(join(cwd, p));
      if (st.isSymbolicLink()) out[p] = `link ${readlinkSync(join(cwd, p))}`;
      else if (st.isDirectory()) {
        out[p] = "dir";
        walk(p);
      } else
        out[p] = `file ${createHash("sha256")
          .update(readFileSync(join(cwd, p)))
          .digest("hex")}`;
    }
  };
  walk(".forge");
  return out;
}

/** The lines of a stream's text (a trailing newline ends the last line). */
export function lines(s: string): string[] {
  return s === "" ? [] : s.replace(/\n$/, "").split("\n");
}

/**
 * Assert a clean refusal: the exit code, no signal, exactly one stderr line
 * that starts with `<prog>: ` and contains (or matches) every needle, and no
 * stack trace.
 */
export function assertOneLineError(
  t: ExecutionContext,
  r: Ran,
  prog: string,
  needles: Array<string | RegExp>,
  code = 1
): void {
  t.is(r.signal, null, `killed by ${r.signal}`);
  t.is(r.code, code, r.stderr);
  const err = lines(r.stderr);
  t.is(err.length, 1, `stderr: ${JSON.stringify(r.stderr.slice(0, 2000))}`);
  t.true(err[0]?.startsWith(`${prog}: `), err[0]);
  for (const n of needles) {
    const hit = typeof n === "string" ? err[0]?.includes(n) : n.test(err[0] ?? "");
    t.true(hit, `${String(n)} not in ${JSON.stringify(err[0])}`);
  }
  t.false(/^\s+at /m.test(r.stderr), "stack trace on stderr");
}
