/**
 * The adapter contract and the cluster manifests (spec/hosts.md), with no
 * host and no cluster: `forge-ci adapter` answers the Radicle CI broker's
 * trigger lines (push and patch) with exactly two lines; a malformed line
 * is one stderr line and a non-zero exit; `runner=adapter:CMD` drives an
 * adapter by the same contract (here forge-ci adapter itself) and records
 * its verdict; `forge-ci emit` writes the golden k8s and Nomad manifests,
 * and the worker, run locally for every JOB_COMPLETION_INDEX, does each
 * (arm, chunk) exactly once.
 */
import test from "ava";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git, jsonl, run } from "./lib/run.js";
import { golden } from "./lib/golden.js";
import { stepsRepo } from "./lib/steps_repo.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

type Rec = Record<string, any>;

const repo = (steps: Record<string, string>, files: Record<string, string> = {}): string =>
  stepsRepo("forge-adapter-e2e-", steps, files);

const push = (commit: string): string =>
  JSON.stringify({
    request: "trigger",
    version: 1,
    event_type: "push",
    repository: { id: "rad:z3gqcJUoA1n9HaHKufZs5FCSGazv5", name: "app" },
    push: { pusher: "did:key:z6Mk", before: commit, after: commit, branch: "main", commits: [commit] },
  }) + "\n";

const patch = (commit: string): string =>
  JSON.stringify({
    request: "trigger",
    version: 1,
    event_type: "patch",
    repository: { id: "rad:z3gqcJUoA1n9HaHKufZs5FCSGazv5", name: "app" },
    patch: {
      action: "created",
      patch: { id: "a1b2c3", title: "fix", revisions: [{ id: "r1", base: commit, oid: commit }] },
    },
  }) + "\n";

test("forge-ci adapter: a push and a patch trigger line each give exactly two stdout lines", async (t) => {
  const dir = repo({ "10-test": "grep -q good x.txt" }, { "x.txt": "good\n" });
  const head = git(dir, ["rev-parse", "HEAD"]).trim();
  for (const [line, kind] of [
    [push(head), "push"],
    [patch(head), "patch"],
  ] as const) {
    const r = await run("forge-ci", ["adapter"], { cwd: dir, input: line });
    t.is(r.code, 0, r.stderr);
    const out = r.stdout.split("\n").filter(Boolean);
    t.is(out.length, 2, r.stdout);
    const [a, b] = out.map((l) => JSON.parse(l) as Rec);
    t.is(a!.response, "triggered");
    t.regex(a!.run_id.id, /^[0-9a-f-]{36}$/);
    t.deepEqual(Object.keys(a!), ["response", "run_id"]);
    t.is(b!.response, "finished");
    t.is(b!.result, "success");
    t.is(b!.forge.event_type, kind);
    t.is(b!.forge.commit, head);
    t.is(b!.forge.runs.length, 1);
    t.is(b!.forge.runs[0].verdict, "pass");
    t.regex(r.stderr, /10-test/, "logs on stderr");
  }
  // A failing step: failure, still two lines.
  writeFileSync(join(dir, "x.txt"), "bad\n");
  git(dir, ["commit", "-qam", "break"]);
  const bad = git(dir, ["rev-parse", "HEAD"]).trim();
  const r = await run("forge-ci", ["adapter"], { cwd: dir, input: push(bad) });
  const out = r.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Rec);
  t.is(out.length, 2);
  t.is(out[1]!.result, "failure");
});

const MALFORMED =
  "forge-ci adapter: a malformed trigger line exits non-zero with one stderr line and nothing on stdout";
test(MALFORMED, async (t) => {
  const dir = repo({ "10-test": "true" });
  const head = git(dir, ["rev-parse", "HEAD"]).trim();
  for (const line of [
    "{not json\n",
    '{"request":"trigger","version":2,"event_type":"push","push":{"after":"' + head + '"}}\n',
    '{"request":"trigger","version":1,"event_type":"tag"}\n',
    '{"request":"trigger","version":1,"event_type":"push","push":{"after":"nope"}}\n',
    push("0".repeat(40)),
    push(head) + push(head),
  ]) {
    const r = await run("forge-ci", ["adapter"], { cwd: dir, input: line });
    t.not(r.code, 0, line);
    t.is(r.stdout, "", line);
    t.is(r.stderr.split("\n").filter(Boolean).length, 1, r.stderr);
    t.regex(r.stderr, /^forge-ci adapter: stdin/);
  }
});

test("runner=adapter:CMD: forge runs an external adapter by the same contract and records its verdict", async (t) => {
  const dir = repo({ "10-test": "grep -q good x.txt" }, { "x.txt": "good\n" });
  writeFileSync(join(dir, ".forge", "ci", "ci.env"), "runner=adapter:forge-ci adapter\n");
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "adapter"]);
  const r = await run("forge-ci", ["run", "--json"], { cwd: dir });
  t.is(r.code, 0, r.stderr);
  const [run1] = jsonl(r.stdout) as Rec[];
  t.is(run1!.runner, "adapter:forge-ci adapter");
  t.deepEqual(
    run1!.steps.map((s: Rec) => [s.name, s.outcome]),
    [["00-adapter", "pass"]]
  );
  const kept = JSON.parse(readFileSync(join(dir, ".forge", "ci", "runs", run1!.id, "adapter.json"), "utf8")) as Rec;
  t.is(kept.forge.runs[0].verdict, "pass", "the adapter's own records are named in its finished line");
  // An adapter that breaks the contract (a third line): one line, exit 1.
  const bin = mkdtempSync(join(tmpdir(), "forge-adapter-bin-"));
  scratch(bin);
  writeFileSync(join(bin, "chatty"), '#!/bin/sh\necho "{}"\necho "{}"\necho "{}"\n');
  chmodSync(join(bin, "chatty"), 0o755);
  writeFileSync(join(dir, ".forge", "ci", "ci.env"), `runner=adapter:${join(bin, "chatty")}\n`);
  const b = await run("forge-ci", ["run"], { cwd: dir });
  t.is(b.code, 1);
  t.regex(b.stderr, /adapter .*chatty: 3 lines on stdout/);
});

/** The manifest with the batch id and the commit made constant (they follow the repo's commit). */
function normal(text: string, batch: string, commit: string): string {
  return text.split(batch).join("BATCH").split(commit).join("COMMIT");
}

const EMIT =
  "forge-ci emit k8s | nomad: golden manifests; the worker run for every JOB_COMPLETION_INDEX does each " +
  "(arm, chunk) once";
test(EMIT, async (t) => {
  const dir = repo({ "10-test": "grep -q good x.txt" }, { "x.txt": "bad\n" });
  git(dir, ["checkout", "-q", "-b", "fix"]);
  writeFileSync(join(dir, "x.txt"), "good\n");
  git(dir, ["commit", "-qam", "fix"]);
  git(dir, ["checkout", "-q", "main"]);
  const pr = await run("forge-pr", ["create", "-t", "fix", "-B", "main", "-H", "fix", "--json", "number"], {
    cwd: dir,
  });
  const n = String((JSON.parse(pr.stdout) as Rec).number);
  const stage = scratch(mkdtempSync(join(tmpdir(), "forge-emit-")));
  const k8s = await run("forge-ci", ["emit", "k8s", n, "--repeat", "5", "--chunk", "2", "--stage", stage], {
    cwd: dir,
  });
  t.is(k8s.code, 0, k8s.stderr);
  const batch = /name: forge-ci-([0-9a-f]{12})/.exec(k8s.stdout)![1]!;
  const head = git(dir, ["rev-parse", "main"]).trim();
  golden(t, "ci/emit-k8s.yaml", normal(k8s.stdout, batch, head));
  const nomad = await run("forge-ci", ["emit", "nomad", n, "--repeat", "5", "--chunk", "2", "--stage", stage], {
    cwd: dir,
  });
  t.is(nomad.code, 0, nomad.stderr);
  golden(t, "ci/emit-nomad.hcl", normal(nomad.stdout, batch, head));
  const disp = await run(
    "forge-ci",
    ["emit", "nomad", n, "--repeat", "5", "--chunk", "2", "--stage", stage, "--dispatch"],
    {
      cwd: dir,
    }
  );
  golden(t, "ci/emit-nomad-dispatch.jsonl", normal(disp.stdout, batch, head));
  const payload = readFileSync(join(stage, `forge-payload-${batch}.json`));
  t.true(payload.length < 16 * 1024);
  t.is(JSON.parse(payload.toString()).commit, head);
  // 2 arms × 3 chunks: indexes 0..5, each run once, locally, as a pod would.
  for (let i = 0; i < 6; i++) {
    const r = spawnSync("node", [`forge-worker-${batch}.mjs`, "--index", "3", join(stage, `forge-job-${batch}`)], {
      cwd: stage,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, JOB_COMPLETION_INDEX: String(i) },
      encoding: "utf8",
    });
    t.is(r.status, 0, r.stderr);
  }
  const recs = readdirSync(stage)
    .filter((f) => f.endsWith(".rec"))
    .sort();
  t.deepEqual(
    recs,
    [0, 1].flatMap((a) => [0, 1, 2].map((c) => `forge-job-${batch}-${a}-${c}.rec`))
  );
  const trials = recs.flatMap((f) =>
    (jsonl(readFileSync(join(stage, f), "utf8")) as Rec[]).filter((l) => l.kind === "trial")
  );
  for (const arm of [0, 1]) {
    const mine = trials.filter((x) => x.arm === arm);
    t.deepEqual(mine.map((x) => x.replicate).sort(), [0, 1, 2, 3, 4], `arm ${arm}: each replicate exactly once`);
    t.true(
      mine.every((x) => x.steps[0].outcome === (arm === 0 ? "fail" : "pass")),
      "baseline fails, patched passes"
    );
  }
  // No index: a usage line, not a run.
  const none = spawnSync("node", [`forge-worker-${batch}.mjs`, "--index", "3", join(stage, `forge-job-${batch}`)], {
    cwd: stage,
    env: { PATH: process.env.PATH },
    encoding: "utf8",
  });
  t.is(none.status, 2);
});
