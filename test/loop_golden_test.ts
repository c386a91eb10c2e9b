/**
 * forge-loop's help within the budgets (DESIGN §6) against golden text,
 * its errors as one stderr line with the right exit code, and its JSON
 * output against goldens (made-up ids, hashes, durations and the temp path
 * replaced by placeholders).
 */
import test from "ava";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { golden } from "./lib/golden.js";
import { git, jsonl, run, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

const VERBS = [
  "start",
  "next",
  "retry",
  "backtrack",
  "pause",
  "resume",
  "stop",
  "status",
  "history",
  "audit",
  "gate",
  "list",
  "learn",
  "supersede",
  "retract",
  "recall",
  "report-template",
];

function measure(s: string): { lines: number; bytes: number } {
  return { lines: s.split("\n").length - (s.endsWith("\n") ? 1 : 0), bytes: Buffer.byteLength(s) };
}

// A verb's --help is the full page (help_full_test); -h is the budgeted one.
for (const argv of [[], ["-h"], ...VERBS.map((v) => [v, "-h"])]) {
  test(`'forge-loop ${argv.join(" ")}' prints help within 8 lines and 250 bytes, golden`, async (t) => {
    const r = await run("forge-loop", argv, { cwd: tmpdir() });
    t.is(r.code, 0, r.stderr);
    t.is(r.stderr, "");
    const m = measure(r.stdout);
    t.true(m.lines <= 8 && m.bytes <= 250, `${m.lines} lines, ${m.bytes} bytes`);
    const name = argv.length && argv[0] !== "-h" ? `forge-loop-${argv[0]}` : "forge-loop";
    golden(t, `help/${name}.txt`, r.stdout);
  });
}

test("forge-loop's root help names exactly its verbs, and forge loop dispatches to it", async (t) => {
  const r = await run("forge-loop", ["-h"], { cwd: tmpdir() });
  t.regex(r.stdout, new RegExp(`^commands: ${VERBS.join(" ")}$`, "m"));
  const d = await run("forge", ["loop", "-h"], { cwd: tmpdir() });
  t.is(d.stdout, r.stdout);
});

let shared: Promise<string> | undefined;
function store(): Promise<string> {
  return (shared ??= Promise.resolve(scratch(tempRepo("forge-loop-golden-"))));
}

const ERRORS: Array<{ argv: string[]; code: 1 | 2; has: string; where?: "nostore" }> = [
  { argv: ["start"], code: 2, has: "missing --task" },
  { argv: ["start", "--task", "x", "--check", "node t.js"], code: 2, has: "--check must follow the --criterion" },
  { argv: ["start", "--task", "x", "--criterion", "c", "--check", "'unclosed"], code: 2, has: "unclosed quote" },
  { argv: ["start", "--task", "x", "--max-rounds", "0"], code: 2, has: "--max-rounds" },
  { argv: ["start", "--task", "x", "--bogus"], code: 2, has: "--bogus" },
  { argv: ["next"], code: 2, has: "missing <loop>" },
  { argv: ["next", "abcd", "-F", "-"], code: 1, has: "no loop 'abcd'" },
  { argv: ["next", "zz", "-F", "-"], code: 2, has: "invalid loop ref" },
  { argv: ["gate", "frob", "abcd"], code: 2, has: "check|resolve" },
  { argv: ["history", "abcd", "--limit", "500"], code: 2, has: "--limit" },
  { argv: ["learn", "--scope", "repo", "--kind", "rumour", "--text", "x"], code: 2, has: "--kind" },
  { argv: ["retract", "abcd"], code: 2, has: "--expect-revision" },
  { argv: ["recall"], code: 2, has: "missing --scope" },
  { argv: ["frob"], code: 2, has: "frob" },
  { argv: ["list"], code: 1, has: "forge init", where: "nostore" },
];
for (const e of ERRORS) {
  test(`forge-loop ${e.argv.join(" ")}: one stderr line, exit ${e.code}`, async (t) => {
    const cwd = e.where === "nostore" ? mkdtempSync(join(tmpdir(), "forge-nostore-")) : await store();
    const r = await run("forge-loop", e.argv, { cwd });
    t.is(r.code, e.code, r.stderr);
    t.is(r.stdout, "");
    t.is(measure(r.stderr).lines, 1, r.stderr);
    t.true(r.stderr.startsWith("forge-loop"), r.stderr);
    t.true(r.stderr.includes(e.has), r.stderr);
  });
}

/** Placeholders for what each run makes up. */
function scrub(text: string, repo: string, loopId: string): string {
  return text
    .split(repo)
    .join("<repo>")
    .split(loopId)
    .join("<loop>")
    .split(loopId.slice(0, 8))
    .join("<loop8>")
    .replace(/"(duration_ms|durationMs)":\d+/g, '"$1":0')
    .replace(/\b(c|cr|sg|rd)-[0-9a-f]{8}\b/g, "$1-<id>")
    .replace(/\b[0-9a-f]{64}\b/g, "<sha256>")
    .replace(/\b[0-9a-f]{40}\b/g, "<sha1>");
}

test("forge-loop start, a rejected next, status and audit --json match their goldens", async (t) => {
  const dir = scratch(tempRepo("forge-loop-golden-"));
  writeFileSync(join(dir, "check.js"), "process.exit(1)\n");
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "check"]);
  const env = { FORGE_NOW: "2026-12-01T09:00:00Z" };
  const s = await run(
    "forge-loop",
    [
      "start",
      "--task",
      "make the check pass",
      "--constraint",
      "no new dependencies",
      "--criterion",
      "check passes",
      "--check",
      "node check.js",
      "--json",
    ],
    { cwd: dir, env }
  );
  t.is(s.code, 0, s.stderr);
  const rec = jsonl(s.stdout)[0]!;
  const id = rec.loop_id as string;
  const cr = (rec.criteria as Array<{ id: string }>)[0]!.id;
  golden(t, "loop/start.jsonl", scrub(s.stdout, dir, id));
  const report = JSON.stringify({
    format: "loopforge.round-report",
    outcome: "success",
    continuation: "continue",
    summary: "claimed",
    violations: [],
    evidence: {
      checks: [{ name: "node check.js", status: "passed" }],
      claims: [{ id: "claim-1", targetId: cr, evidenceRefs: ["command:node check.js"] }],
    },
  });
  const n = await run("forge-loop", ["next", id, "-F", "-", "--json"], { cwd: dir, env, input: report });
  t.is(n.code, 0, n.stderr);
  golden(t, "loop/next-rejected.jsonl", scrub(n.stdout, dir, id));
  golden(
    t,
    "loop/next-rejected.txt",
    scrub((await run("forge-loop", ["status", id], { cwd: dir, env })).stdout, dir, id)
  );
  golden(
    t,
    "loop/audit.jsonl",
    scrub((await run("forge-loop", ["audit", id, "--json"], { cwd: dir, env })).stdout, dir, id)
  );
  golden(t, "loop/history.txt", scrub((await run("forge-loop", ["history", id], { cwd: dir, env })).stdout, dir, id));
});
