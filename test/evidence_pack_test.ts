/**
 * Evidence compaction (issue 32 item 9): `forge-export pack` packs the
 * loose import files into one checked file, and the observation is the
 * same bytes before and after, on the demo's sample repository and on a
 * 10,000-trial store; imports stay idempotent, a later import packs into a
 * second pack, an edited pack is named by fsck and left out of the fold.
 */
import test from "ava";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BIN, git, jsonl, ROOT, run, sh } from "./lib/run.js";
import { makeSampleRepo } from "./lib/sample.js";

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const imports = (dir: string): string[] => readdirSync(join(dir, ".forge", "evidence", "imports")).sort();

async function observe(dir: string, scope = "default"): Promise<string> {
  const r = await run("forge-observe", ["--json", "--scope", scope], { cwd: dir });
  if (r.code !== 0) throw new Error(`forge-observe: exit ${r.code}: ${r.stderr}`);
  return r.stdout;
}

test("the demo's sample: the observation is byte for byte the same after forge-export pack", async (t) => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "forge-pack-")));
  made.push(root);
  const { dir } = await makeSampleRepo(join(root, "repo"), { seed: 1, binDir: BIN });
  const before = await observe(dir);
  const loose = imports(dir);
  t.true(loose.length > 2, loose.join(" "));
  const p = await run("forge-export", ["pack", "--json"], { cwd: dir });
  t.is(p.code, 0, p.stderr);
  const out = jsonl(p.stdout)[0]!;
  t.is(out.packed, loose.length);
  t.is(out.left, 0);
  t.deepEqual(imports(dir), [String(out.pack).split("/").at(-1)]);
  t.is(await observe(dir), before, "the same observation from the pack");
  t.is(await observe(dir), before, "again (its caches)");
  // Idempotency kept: every run exported again is already imported.
  const e = await sh("forge-ci list --json | forge-export", { cwd: dir });
  t.is(e.code, 0, e.stderr);
  t.true(jsonl(e.stdout).every((l) => l.status === "already_imported"));
  t.is(imports(dir).length, 1);
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "packed"]);
  t.deepEqual(await run("forge", ["fsck"], { cwd: dir }).then((f) => [f.code, f.stdout]), [0, ""]);
  // Committed: the base moved, so this is the observation to compare with from here.
  const committed = await observe(dir);
  // A pack again: nothing loose, nothing to do.
  t.is((await run("forge-export", ["pack"], { cwd: dir })).stdout, "nothing to pack\n");

  // An edited pack: fsck names it, forge-observe leaves it out and names it as a marker.
  const pack = join(dir, ".forge", "evidence", "imports", imports(dir)[0]!);
  const text = readFileSync(pack, "utf8");
  writeFileSync(pack, text.replace('"outcome":"pass"', '"outcome":"fail"'));
  const f = await run("forge", ["fsck"], { cwd: dir });
  t.is(f.code, 1);
  t.regex(f.stdout, /^\.forge\/evidence\/imports\/pack-[0-9a-f]{64}\.json: field 'pack_sha256': /);
  const o = jsonl(await observe(dir))[0]!;
  t.true((o.markers as string[]).includes(`unreadable:import:${imports(dir)[0]!.slice(0, -5)}`), String(o.markers));
  writeFileSync(pack, text);
  t.is(await observe(dir), committed);
});

test("a 10,000-trial store: the observation is byte for byte the same packed, and a pack interrupted", async (t) => {
  const gen = (await import(
    pathToFileURL(join(ROOT, "tools", "dist", "gen_evidence.js")).href
  )) as typeof import("../tools/dist/gen_evidence.js");
  const root = realpathSync(mkdtempSync(join(tmpdir(), "forge-pack10k-")));
  made.push(root);
  const s = gen.generateEvidence(join(root, "store"), { imports: 100, perImport: 100 });
  t.is(s.trials, 10_000);
  const dir = s.dir;
  git(dir, ["init", "-q", "-b", "main"]);
  const before = await observe(dir, s.scope);
  t.is(
    jsonl(before)
      .filter((l) => l.kind === "node")
      .reduce((n, l) => n + (l.trials as number), 0),
    10_000
  );
  const loose = imports(dir);
  t.is(loose.length, 100);
  // An interrupted pack: the pack written, its parts still there (a copy of them put back after).
  const saved = loose.map((n) => [n, readFileSync(join(dir, ".forge", "evidence", "imports", n))] as const);
  const p = await run("forge-export", ["pack", "--json"], { cwd: dir });
  t.is(p.code, 0, p.stderr);
  t.is(jsonl(p.stdout)[0]!.packed, 100);
  t.is(imports(dir).length, 1);
  t.is(await observe(dir, s.scope), before, "packed");
  for (const [n, b] of saved) writeFileSync(join(dir, ".forge", "evidence", "imports", n), b);
  t.is(await observe(dir, s.scope), before, "pack and parts both there");
});
