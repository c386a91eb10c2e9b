/**
 * Output at 10,000 issues is complete when the reader is slow and quiet when
 * the reader goes away: `| (sleep 2; cat)` gets every line (a peer was seen
 * to drop most of a slow pipe and still exit 0), `| head -1` exits 0 with
 * nothing on stderr.
 */
import test from "ava";
import { genId, writeManyIssues } from "./lib/fixture.js";
import { removeScratch, scratch } from "./lib/scratch.js";
import { jsonl, sh, tempRepo } from "./lib/run.js";

test.after.always(removeScratch);

const N = 10_000;
let repo = "";

test.before(() => {
  repo = scratch(tempRepo("forge-10k-"));
  writeManyIssues(repo, N);
});

test("forge-issue list --json | (sleep 2; cat) | wc -l delivers all 10,000 lines", async (t) => {
  const r = await sh("forge-issue list --json --limit 100000 | (sleep 2; cat) | wc -l", { cwd: repo });
  t.is(r.code, 0, `exit ${r.code} ${r.signal ?? ""}: ${r.stderr}`);
  t.is(r.stdout.trim(), String(N));
  t.is(r.stderr, "");
});

test("forge-issue list --json into a slow reader delivers every record whole and in order", async (t) => {
  const r = await sh("forge-issue list --json number,id,title --limit 100000 | (sleep 2; cat)", { cwd: repo });
  t.is(r.code, 0, `exit ${r.code} ${r.signal ?? ""}: ${r.stderr}`);
  t.is(r.stderr, "");
  const rows = jsonl(r.stdout);
  t.is(rows.length, N);
  t.true(r.stdout.endsWith("}\n"));
  const wrong = rows.findIndex(
    (row, i) => row.number !== N - i || row.id !== genId(N - 1 - i) || row.title !== `Issue ${N - 1 - i}`
  );
  t.is(wrong, -1, `first wrong row: ${wrong}`);
});

test("forge-issue list (human) into a slow reader delivers all 10,000 rows", async (t) => {
  const r = await sh("forge-issue list --limit 100000 | (sleep 2; cat) | wc -l", { cwd: repo });
  t.is(r.code, 0, `exit ${r.code} ${r.signal ?? ""}: ${r.stderr}`);
  t.is(r.stdout.trim(), String(N));
  t.is(r.stderr, "");
});

test("forge-issue list --jq into a slow reader delivers all 10,000 lines", async (t) => {
  const r = await sh("forge-issue list --limit 100000 --jq '.[].number' | (sleep 2; cat) | wc -l", { cwd: repo });
  t.is(r.code, 0, `exit ${r.code} ${r.signal ?? ""}: ${r.stderr}`);
  t.is(r.stdout.trim(), String(N));
  t.is(r.stderr, "");
});

test("forge-issue list --json | head -1 exits 0 with no stderr, under pipefail", async (t) => {
  const r = await sh("forge-issue list --json --limit 100000 | head -1", { cwd: repo });
  t.is(r.code, 0, `exit ${r.code} ${r.signal ?? ""}: ${r.stderr}`);
  t.is(r.stderr, "");
  t.deepEqual(
    jsonl(r.stdout).map((x) => x.number),
    [N]
  );
});

test("forge-issue list --json | head -1: forge-issue's own status is 0", async (t) => {
  // Without pipefail, to read the producer's status alone.
  const r = await sh(
    "set +o pipefail; forge-issue list --json --limit 100000 2>err.txt | head -1 >/dev/null; echo " +
      '"${PIPESTATUS[0]}"; cat err.txt; rm err.txt',
    { cwd: repo }
  );
  t.is(r.stdout, "0\n");
});

test("forge-issue list | head -1 (human) exits 0 with no stderr", async (t) => {
  const r = await sh("forge-issue list --limit 100000 | head -1", { cwd: repo });
  t.is(r.code, 0, `exit ${r.code} ${r.signal ?? ""}: ${r.stderr}`);
  t.is(r.stderr, "");
  t.is(r.stdout, `${N}\tOPEN\tIssue ${N - 1}\t${(N - 1) % 2 ? "" : "bug"}\t2021-01-01T02:46:39Z\n`);
});

test("forge issue list --json | head -1 exits 0 through the dispatcher too", async (t) => {
  const r = await sh("forge issue list --json number --limit 100000 | head -1", { cwd: repo });
  t.is(r.code, 0, `exit ${r.code} ${r.signal ?? ""}: ${r.stderr}`);
  t.is(r.stderr, "");
  t.is(r.stdout, `{"number":${N}}\n`);
});
