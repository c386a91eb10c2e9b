/**
 * forge-observe's record caches (`.forge/.cache/issues.observed`,
 * `prs.observed`): an observation made from them is byte for byte the one
 * made from the files, before and after every kind of change — a verb's
 * write, a PR that starts closing an issue whose file did not change, an
 * edit in place with its size and mtime put back, an archive, a torn
 * cache, an unreadable file — and the cache is really what answered.
 */
import test from "ava";
import { execFileSync } from "node:child_process";
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { crc32 } from "node:zlib";
import { prFixtureRepo } from "./lib/pr_fixture.js";
import { jsonl, run } from "./lib/run.js";

const CACHES = ["issues.observed", "prs.observed"];
const TYPO = "7c9e6679-7425-40de-944b-e07fc1f90ae7"; // #3, closed, labelled docs: no fix label anywhere in its text
const DARK = "abcd1234-5678-4abc-8def-0123456789ab"; // #2, open

const cache = (dir: string, name: string): string => join(dir, ".forge", ".cache", name);

/** One observation (every file changed more than the racy window ago, so the walk may keep it). */
async function observeIn(dir: string): Promise<string> {
  await sleep(80);
  const r = await run("forge-observe", ["--json"], { cwd: dir });
  if (r.code !== 0 || r.stderr !== "") throw new Error(`forge-observe: exit ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** The observation made from the caches as they are, then the one made with no cache: they must agree. */
async function warmThenCold(
  t: { is: (a: string, b: string, m?: string) => void },
  dir: string,
  what: string
): Promise<string> {
  const warm = await observeIn(dir);
  for (const c of CACHES) rmSync(cache(dir, c), { force: true });
  const cold = await observeIn(dir);
  t.is(warm, cold, what);
  await observeIn(dir); // the caches again, for the next change
  return cold;
}

/** The payload of an entity's line in issues.observed ("" when it has none). */
function payloadOf(dir: string, id: string): string {
  const line = readFileSync(cache(dir, "issues.observed"), "utf8")
    .split("\n")
    .find((l) => l.slice(21, 57) === id);
  return line === undefined ? "" : line.slice(line.indexOf("\x1f") + 1);
}

const issueIds = (out: string): string[] =>
  jsonl(out)
    .filter((l) => l.kind === "issue")
    .map((l) => l.id as string)
    .sort();

test(
  "forge-observe gives the same bytes from its record " + "caches as from the files, after every kind of change",
  async (t) => {
    const dir = await prFixtureRepo();
    const first = await warmThenCold(t, dir, "cold");
    for (const c of CACHES) t.regex(readFileSync(cache(dir, c), "utf8"), /^forge-records 2 observe-/);
    t.is(await observeIn(dir), first, "from the caches");
    t.false(issueIds(first).includes(TYPO));

    // A verb's write: an open issue labelled bug, closed.
    t.is((await run("forge-issue", ["edit", "2", "--add-label", "bug"], { cwd: dir })).code, 0);
    t.is((await run("forge-issue", ["close", "2"], { cwd: dir })).code, 0);
    const closed = await warmThenCold(t, dir, "after close");
    t.true(issueIds(closed).includes(DARK));

    // A PR that closes #3 (whose file is unchanged: it was kept as "no fix label", and a PR now closes it).
    const pr = await run("forge-pr", ["create", "-t", "Fix the typo", "-B", "main", "-H", "topic", "--issue", "3"], {
      cwd: dir,
    });
    t.is(pr.code, 0, pr.stderr);
    const closing = await warmThenCold(t, dir, "after a PR closes an unchanged issue");
    t.true(issueIds(closing).includes(TYPO));

    // An edit in place, same size, with mtime and atime put back: only ctime tells.
    const file = join(dir, ".forge", "issues", TYPO, "issue.md");
    const st = statSync(file, { bigint: true });
    const text = readFileSync(file, "utf8");
    t.true(text.includes("state: closed\n"));
    writeFileSync(file, text.replace("state: closed\n", "state: open  \n"));
    // The mtime to the nanosecond (utimes in Node rounds to the microsecond).
    const ns = st.mtimeNs.toString().padStart(10, "0");
    execFileSync("touch", ["-m", "-d", `@${ns.slice(0, -9)}.${ns.slice(-9)}`, file]);
    t.is(statSync(file, { bigint: true }).size, st.size);
    t.is(statSync(file, { bigint: true }).mtimeNs, st.mtimeNs);
    const edited = await warmThenCold(t, dir, "after an edit in place");
    t.not(edited, closing);

    // Archived: an issue and a PR. The folder moves, the file's lstat does not: its line (a live issue's) is
    // refused and replaced by an archived one's (`A`), so the next walk does not read the file again.
    t.is(payloadOf(dir, DARK).slice(0, 1), "F");
    t.is((await run("forge-issue", ["archive", "2"], { cwd: dir })).code, 0);
    t.is((await run("forge-pr", ["archive", "3"], { cwd: dir })).code, 0);
    t.is((await run("forge-pr", ["close", "1"], { cwd: dir })).code, 0);
    const archived = await observeIn(dir);
    t.is(payloadOf(dir, DARK), "A");
    t.is(await warmThenCold(t, dir, "after archives and a PR closed"), archived);
    // Moved back by hand (the same file again): the `A` line is refused in turn.
    renameSync(join(dir, ".forge", "archive", "issues", DARK), join(dir, ".forge", "issues", DARK));
    const back = await observeIn(dir);
    t.is(payloadOf(dir, DARK).slice(0, 1), "F");
    t.true(issueIds(back).includes(DARK));
    t.is(await warmThenCold(t, dir, "after a folder moved back"), back);

    // A torn cache, and garbage in the middle of one.
    const issues = readFileSync(cache(dir, "issues.observed"));
    writeFileSync(cache(dir, "issues.observed"), issues.subarray(0, issues.length - 7));
    const prs = readFileSync(cache(dir, "prs.observed"));
    prs.fill(0x7a, Math.floor(prs.length / 2), Math.floor(prs.length / 2) + 5);
    writeFileSync(cache(dir, "prs.observed"), prs);
    await warmThenCold(t, dir, "after a torn and a garbled cache");

    // An unreadable file (closed, a fix label: of interest) is a marker, from the caches too, and is not kept.
    const bad = join(dir, ".forge", "issues", "e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b", "issue.md");
    writeFileSync(bad, readFileSync(bad, "utf8").replace(/^state: .*$/m, "state: [bug"));
    const marked = await warmThenCold(t, dir, "after a file became unreadable");
    t.true((jsonl(marked)[0]!.markers as string[]).includes("unreadable:issue:e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b"));
    t.false(readFileSync(cache(dir, "issues.observed"), "utf8").includes("e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b"));
    t.is(await observeIn(dir), marked);
  }
);

test(
  "forge-observe's record cache is what answers while a file's lstat matches it (a forged payload with a good " +
    "checksum shows)",
  async (t) => {
    const dir = await prFixtureRepo();
    const before = await observeIn(dir);
    await observeIn(dir);
    t.false(issueIds(before).includes(TYPO));
    // #3's line says `N` (no fix label in its text) and its labels: say `F` and `bug` instead, and fix the block's
    // checksum.
    const text = readFileSync(cache(dir, "issues.observed"), "latin1");
    const at = text.indexOf(TYPO);
    const sep = text.indexOf("\x1f", at);
    const end = text.indexOf("\n", sep);
    t.regex(text.slice(sep + 1, end), /^N\["closed",".*",\["docs"\],null\]$/);
    const flipped = text.slice(sep + 2, end).replace('["docs"]', '["bug"]');
    const forged = `${text.slice(0, sep + 1)}F${flipped}${text.slice(end)}`;
    const nl = forged.indexOf("\n") + 1;
    const trailer = forged.indexOf("\n\x1e", sep) + 1;
    const sum = crc32(Buffer.from(forged.slice(nl, trailer), "latin1"))
      .toString(16)
      .padStart(8, "0");
    writeFileSync(
      cache(dir, "issues.observed"),
      Buffer.from(`${forged.slice(0, trailer)}\x1e${sum}${forged.slice(trailer + 9)}`, "latin1")
    );
    t.true(issueIds(await observeIn(dir)).includes(TYPO), "the forged line was used");
    // The file changes (touched): its line no longer vouches for it, and the answer is the file's again.
    const file = join(dir, ".forge", "issues", TYPO, "issue.md");
    writeFileSync(file, readFileSync(file));
    t.is(await observeIn(dir), before);
  }
);
