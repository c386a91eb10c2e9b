import test from "ava";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { evidenceImportsDir, storeAt, type Store } from "@forge/core";
import { compileScope, readScope } from "@forge/evidence";
import { assess, canonicalJson } from "@forge/kernel";
import { checkClaimId } from "./claim_ids.js";
import { exportRecords, type LineOutcome } from "./export_records.js";
import { ciRun, HEAD, mergeRec, SIG } from "./_records.js";

function tempStore(): Store {
  const dir = join(realpathSync(mkdtempSync(join(tmpdir(), "forge-export-"))), ".forge");
  mkdirSync(dir);
  return storeAt(dir);
}

const OPTS = {
  scope: "default",
  producer: { name: "test", version: "0" },
  now: () => new Date("2026-11-30T04:00:00Z"),
};

async function collect(store: Store, lines: string[]): Promise<LineOutcome[]> {
  const out: LineOutcome[] = [];
  for await (const r of exportRecords(store, Readable.from([lines.join("\n") + "\n"]), OPTS)) out.push(r);
  return out;
}

const R1 = "11111111-1111-4111-8111-111111111111";
const R2 = "22222222-2222-4222-8222-222222222222";

test(
  "exportRecords() of two runs of one tree gives a failing " +
    "check with a syndrome and a passing one with two trials",
  async (t) => {
    const store = tempStore();
    const out = await collect(store, [JSON.stringify(ciRun(R1)), JSON.stringify(ciRun(R2, { databaseId: 2 }))]);
    t.deepEqual(
      out.map((o) => ("entry" in o ? o.entry.status : o)),
      ["imported", "imported"]
    );
    const a = assess(compileScope(readScope(store, "default")));
    const tree = { headSha: HEAD, patchSha256: null };
    const bad = a.nodes.find((n) => n.id === checkClaimId("20-bad", tree))!;
    const ok = a.nodes.find((n) => n.id === checkClaimId("10-ok", tree))!;
    t.deepEqual([bad.trials.f, bad.trials.s, bad.belief_micros], [2, 0, 250_000]);
    t.deepEqual([ok.trials.s, ok.trials.f, ok.belief_micros], [2, 0, 750_000]);
    t.deepEqual(a.syndromes, [{ signature: SIG, trials: 2, claims: [bad.id] }]);
    t.deepEqual(a.markers, []);
  }
);

test("exportRecords() reports a bad line with its number, writes nothing for it and goes on", async (t) => {
  const store = tempStore();
  const out = await collect(store, [
    "{",
    JSON.stringify({ hello: 1 }),
    JSON.stringify(ciRun(R1, { headSha: "nope" })),
    "",
    JSON.stringify(mergeRec()),
  ]);
  t.deepEqual(
    out.map((o) => ("error" in o ? o.error : "entry" in o ? o.entry.bundle_id : o.note)),
    [
      'stdin line 1: not a JSON object: "{"',
      "stdin line 2: field 'kind': unknown record (expected a CI run, merge record, act_result, loop_result or " +
        "evidence bundle)",
      "stdin line 3: ci run: field 'headSha': expected a 40-hex commit",
      "merge:33333333-3333-4333-8333-333333333333",
    ]
  );
  t.is(readdirSync(evidenceImportsDir(store)).length, 1);
});

test("exportRecords() notes a run still in progress and writes nothing for it", async (t) => {
  const store = tempStore();
  const out = await collect(store, [JSON.stringify(ciRun(R1, { status: "in_progress", completedAt: null }))]);
  t.deepEqual(out, [{ line: 1, note: `stdin line 1: run ${R1} is in_progress: skipped, not evidence`, idle: true }]);
});

test("exportRecords() imports the same run twice as one file", async (t) => {
  const store = tempStore();
  const out = await collect(store, [JSON.stringify(ciRun(R1)), JSON.stringify(ciRun(R1))]);
  t.deepEqual(
    out.map((o) => ("entry" in o ? o.entry.status : "?")),
    ["imported", "already_imported"]
  );
  t.is(readdirSync(evidenceImportsDir(store)).length, 1);
});

test("the same records exported in any order fold to byte-identical kernel state and assessment", async (t) => {
  const runs = [
    ciRun(R1),
    ciRun(R2, { databaseId: 2 }),
    ciRun("33333333-3333-4333-8333-333333333333", {
      databaseId: 3,
      rerunOf: R1,
      steps: [{ name: "20-bad", outcome: "pass", exitCode: 0, durationMs: 3, signature: null }],
    }),
    ciRun("44444444-4444-4444-8444-444444444444", { databaseId: 4, patchSha256: "d".repeat(64) }),
    mergeRec(),
  ].map((r) => JSON.stringify(r));
  const fold = async (lines: string[]): Promise<string> => {
    const store = tempStore();
    await collect(store, lines);
    const st = readScope(store, "default");
    const c = compileScope(st);
    return canonicalJson({
      assess: assess(c),
      nodes: c.nodes.map((n) => [n.id, n.versions, n.trials.map((x) => x.trial_id)]),
      episodes: st.episodes.map((e) => e.episode_id),
      refs: st.evidence_refs.map((r) => r.ref_id),
    });
  };
  const forward = await fold(runs);
  t.is(await fold([...runs].reverse()), forward);
  t.is(await fold([runs[2]!, runs[0]!, runs[4]!, runs[3]!, runs[1]!]), forward);
  t.true(forward.includes("flaky_retry"), "the rerun's pass after the first run's fail is flaky");
});

test("exportRecords() stops at a corrupt import log instead of blaming each record", async (t) => {
  const store = tempStore();
  await collect(store, [JSON.stringify(ciRun(R1))]);
  const [f] = readdirSync(evidenceImportsDir(store));
  writeFileSync(join(evidenceImportsDir(store), f!), "{");
  await t.throwsAsync(collect(store, [JSON.stringify(ciRun(R2))]), {
    message: /evidence\/imports\/[0-9a-f]{64}\.json: not JSON/,
  });
});

test(
  "a lane that read the log ahead, while it waited " + "for its first record, sees an import made meanwhile",
  async (t) => {
    const store = tempStore();
    await collect(store, [JSON.stringify(ciRun(R1))]);
    await new Promise((r) => setTimeout(r, 120)); // the imports folder is still: the read-ahead's stamp can vouch
    const R3 = "44444444-4444-4444-8444-444444444444";
    const other = { headSha: "b".repeat(40), createdAt: "2026-11-30T03:10:00Z" };
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* input(): AsyncGenerator<string> {
      await gate;
      yield JSON.stringify(ciRun(R2, { ...other, databaseId: 2 })) + "\n";
    }
    const lane = exportRecords(store, input(), OPTS);
    const first = lane.next(); // reads the log ahead, then waits for its input
    // Meanwhile another process imports a run of the same tree as the lane's coming record.
    await collect(store, [JSON.stringify(ciRun(R3, other))]);
    release();
    const r = (await first).value as LineOutcome;
    t.true("entry" in r && r.entry.status === "imported");
    // The claims of that tree were stated by the import made meanwhile: the lane's import does not state them again.
    const id = "entry" in r ? r.entry.batch_id : "";
    const rec = JSON.parse(readFileSync(join(evidenceImportsDir(store), `${id}.json`), "utf8")) as {
      batch: { claim_versions: unknown[] };
    };
    t.deepEqual(rec.batch.claim_versions, []);
  }
);

test(
  "a lane started just after an import reads the log ahead once the folder has been still, and its first record " +
    "uses that read",
  async (t) => {
    const store = tempStore();
    // The imports folder changed just now: no read-ahead can vouch yet.
    await collect(store, [JSON.stringify(ciRun(R1))]);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* input(): AsyncGenerator<string> {
      await gate;
      yield (
        JSON.stringify(ciRun(R2, { headSha: "b".repeat(40), createdAt: "2026-11-30T03:10:00Z", databaseId: 2 })) + "\n"
      );
    }
    const lane = exportRecords(store, input(), OPTS);
    const first = lane.next();
    await new Promise((r) => setTimeout(r, 150)); // past the racy window: the lane has read the log by now
    // An import file changed in place (the folder's stamp does not move): only a lane that reads the log now would see
    // it.
    const [f] = readdirSync(evidenceImportsDir(store));
    writeFileSync(join(evidenceImportsDir(store), f!), "{");
    release();
    const r = (await first).value as LineOutcome;
    t.true("entry" in r && r.entry.status === "imported", JSON.stringify(r));
  }
);
