/**
 * Golden files: plain text under test/golden/, compared byte for byte and
 * rewritten with `UPDATE_GOLDEN=1 pnpm test`.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ExecutionContext } from "ava";
import { GOLDEN } from "./run.js";

const UPDATE = process.env.UPDATE_GOLDEN === "1";

/**
 * Compare `actual` with the golden file `name` (relative to test/golden/).
 * An empty `actual` with `optional` set means "no file": stderr goldens exist
 * only for cases that write to stderr.
 */
export function golden(t: ExecutionContext, name: string, actual: string, optional = false): void {
  const path = join(GOLDEN, name);
  if (UPDATE) {
    if (optional && actual === "") rmSync(path, { force: true });
    else {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, actual);
    }
    t.pass();
    return;
  }
  if (!existsSync(path)) {
    if (optional) t.is(actual, "", `${name}: expected no output`);
    else t.fail(`${name}: no golden file (run with UPDATE_GOLDEN=1)`);
    return;
  }
  t.is(actual, readFileSync(path, "utf8"), `${name} differs`);
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g;
const TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/g;

/**
 * Replace what a writing command makes up (new uuids, the clock, the temp
 * repo path) with placeholders: `<uuid-1>`, `<uuid-2>`… in order of first
 * appearance, `<now>` for timestamps after `since`, `<repo>` for `repo`.
 * Fixed fixture ids and timestamps stay as they are.
 */
export function scrub(text: string, opts: { keep: ReadonlySet<string>; since: string; repo?: string }): string {
  const seen = new Map<string, string>();
  let out = text.replace(UUID, (id) => {
    if (opts.keep.has(id)) return id;
    if (!seen.has(id)) seen.set(id, `<uuid-${seen.size + 1}>`);
    return seen.get(id)!;
  });
  out = out.replace(TIME, (ts) => (ts >= opts.since ? "<now>" : ts));
  if (opts.repo) out = out.split(opts.repo).join("<repo>");
  return out;
}
