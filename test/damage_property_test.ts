/**
 * The damage property (issue 32): for a random store and a random damage —
 * truncate, flip a byte, edit a value, delete — to one of its evidence
 * files (a loose import or a pack), `forge fsck` names that file, and
 * forge-observe either names it as a marker or answers exactly as it does
 * without the file. The seed is printed with every failure
 * (FORGE_PROPERTY_SEED replays one).
 */
import test from "ava";
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rng } from "@forge/kernel/testing";
import { git, jsonl, run, sh, tempRepo } from "./lib/run.js";

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const DAMAGES = ["truncate", "flip", "edit", "delete"] as const;

/** A damage of `bytes` (delete: null). */
function damage(kind: (typeof DAMAGES)[number], bytes: Buffer, r: () => number): Buffer | null {
  const at = (n: number): number => Math.floor(r() * n);
  switch (kind) {
    case "truncate":
      return bytes.subarray(0, at(bytes.length));
    case "flip": {
      const b = Buffer.from(bytes);
      const i = at(b.length);
      b[i] = b[i]! ^ (1 << at(8));
      return b;
    }
    case "edit": {
      const text = bytes.toString("utf8");
      // A trial's outcome, or else a digit (a count, a time), made another valid value.
      const outcomes = [...text.matchAll(/"outcome":"(pass|fail)"/g)];
      if (outcomes.length > 0 && r() < 0.6) {
        const m = outcomes[at(outcomes.length)]!;
        const to = m[1] === "pass" ? '"outcome":"fail"' : '"outcome":"pass"';
        return Buffer.from(text.slice(0, m.index) + to + text.slice(m.index! + m[0].length));
      }
      const digits = [...text.matchAll(/[0-9]/g)];
      const m = digits[at(digits.length)]!;
      const d = String((Number(m[0]) + 1 + at(9)) % 10);
      return Buffer.from(text.slice(0, m.index) + d + text.slice(m.index! + 1));
    }
    case "delete":
      return null;
  }
}

/** A random store: a few CI runs of two steps (one fails at random), exported, committed, maybe packed. */
async function randomStore(t: import("ava").ExecutionContext, r: () => number): Promise<string> {
  const dir = tempRepo("forge-damage-");
  made.push(dir);
  const steps = join(dir, ".forge", "ci", "steps");
  mkdirSync(steps, { recursive: true });
  writeFileSync(join(steps, "10-unit"), "#!/bin/sh\necho ok\n");
  writeFileSync(join(steps, "20-flaky"), '#!/bin/sh\ntest -e "$(dirname "$0")/../../../fail" && exit 1\necho ok\n');
  for (const s of ["10-unit", "20-flaky"]) chmodSync(join(steps, s), 0o755);
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "steps"]);
  const runs = 2 + Math.floor(r() * 3);
  for (let i = 0; i < runs; i++) {
    const fail = join(dir, "fail");
    if (r() < 0.4) writeFileSync(fail, "");
    else rmSync(fail, { force: true });
    // Exit 1 when 20-flaky failed: a run either way.
    await run("forge-ci", ["run", "--continue-on-error"], { cwd: dir });
    // Exported run by run (an import each), or all at the end.
    if (r() < 0.5) t.is((await sh("forge-ci list --json | forge-export", { cwd: dir })).code, 0);
  }
  rmSync(join(dir, "fail"), { force: true });
  t.is((await sh("forge-ci list --json | forge-export", { cwd: dir })).code, 0);
  if (r() < 0.5) t.is((await run("forge-export", ["pack"], { cwd: dir })).code, 0);
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "evidence"]);
  t.is((await run("forge", ["fsck"], { cwd: dir })).stdout, "", "a clean store to start from");
  return dir;
}

async function observe(dir: string): Promise<{ out: string; markers: string[] }> {
  const o = await run("forge-observe", ["--json"], { cwd: dir });
  if (o.code !== 0) throw new Error(`forge-observe: exit ${o.code}: ${o.stderr}`);
  return { out: o.stdout, markers: jsonl(o.stdout)[0]!.markers as string[] };
}

const SEED = Number(process.env.FORGE_PROPERTY_SEED) || Math.floor(Math.random() * 2 ** 31);

test(`damage to an evidence file: fsck names it, observe marks it or answers without it (seed ${SEED})`, async (t) => {
  const r = rng(SEED);
  const stores = 2;
  const perStore = 6;
  for (let s = 0; s < stores; s++) {
    const dir = await randomStore(t, r);
    const importsDir = join(dir, ".forge", "evidence", "imports");
    for (let i = 0; i < perStore; i++) {
      const names = readdirSync(importsDir).sort();
      const name = names[Math.floor(r() * names.length)]!;
      const kind = DAMAGES[Math.floor(r() * DAMAGES.length)]!;
      const file = join(importsDir, name);
      const good = readFileSync(file);
      const bad = damage(kind, good, r);
      const at = bad === null ? -1 : bad.findIndex((b, j) => b !== good[j]);
      const near = (b: Buffer): string => JSON.stringify(b.subarray(Math.max(0, at - 20), at + 20).toString("latin1"));
      const diff = bad === null || at < 0 ? "" : ` at byte ${at} (${near(good)} → ${near(bad)})`;
      const what = `seed ${SEED}, store ${s}, ${kind} of ${name}${diff}`;
      if (bad === null) rmSync(file);
      else writeFileSync(file, bad);
      try {
        const f = await run("forge", ["fsck"], { cwd: dir });
        t.is(f.code, 1, what);
        t.true(
          f.stdout.split("\n").some((l) => l.startsWith(`.forge/evidence/imports/${name}: `)),
          `${what}: ${f.stdout}`
        );
        const damaged = await observe(dir);
        const id = name.slice(0, -5);
        if (!damaged.markers.some((m) => m.endsWith(`:${id}`))) {
          rmSync(file, { force: true });
          const without = await observe(dir);
          t.is(damaged.out, without.out, `${what}: no marker names it, and the answer is not the one without it`);
        }
      } finally {
        writeFileSync(file, good);
      }
    }
  }
});
