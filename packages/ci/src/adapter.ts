/**
 * `forge-ci adapter`: forge CI behind the Radicle CI broker's adapter
 * contract (spec/hosts.md), so a Radicle node, or any broker, can drive it:
 * one trigger line in on stdin, exactly two lines out (triggered, then
 * finished with forge's runs named in `forge`), logs on stderr only.
 */
import { randomUUID } from "node:crypto";
import { ForgeError, gitTopLevel, isForgeError } from "@forge/core";
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { parseTrigger, type CiRunJson } from "@forge/runner";
import { CI_READS } from "./_shared.js";
import { commitOf, runCi } from "./run.js";

/** Read stdin whole (one trigger line; a broker closes stdin after it). */
async function readStdin(ctx: Ctx): Promise<string> {
  const parts: Buffer[] = [];
  for await (const d of ctx.io.stdin as AsyncIterable<Buffer>) parts.push(d);
  return Buffer.concat(parts).toString("utf8");
}

export default defineCommand({
  meta: {
    name: "adapter",
    description: "Run CI for one Radicle CI broker trigger line on stdin (two lines out)",
    help: {
      reads: [
        ["stdin", 'one trigger line: {"request":"trigger","version":1,"event_type":"push"|"patch",…}'],
        ...CI_READS,
      ],
      examples: [
        `echo '{"request":"trigger","version":1,"event_type":"push","push":{"after":"<commit>"}}' | forge-ci adapter`,
        "forge-ci adapter < trigger.json 2> adapter.log",
      ],
      notes: [
        'stdout: {"response":"triggered","run_id":{"id":…}} then {"response":"finished","result":"success"|' +
          '"failure","forge":{…}} with the runs; step lines and errors on stderr only.',
        "A push runs push.after, a patch its last revision's oid: the commit must be in this repository. ci.env's " +
          "hosts= is honoured; its runner=adapter: is not (this is the adapter).",
        "A malformed trigger line or an unknown commit: exit 1, one stderr line, nothing on stdout.",
      ],
    },
  },
  args: {},
  async run({ data: ctx }: { args: Parsed; data: Ctx }) {
    const lines = (await readStdin(ctx)).split("\n").filter((l) => l.trim() !== "");
    if (lines.length !== 1) {
      ctx.io.stderr.write(`${ctx.prog}: stdin: expected one trigger line, got ${lines.length}\n`);
      return 1;
    }
    const top = await gitTopLevel(ctx.io.cwd, ctx.io.env, "CI runs a commit");
    const trigger = parseTrigger(lines[0]!);
    const commit = await commitOf(top, trigger.commit).catch(() => {
      const what = `stdin: trigger line: commit ${trigger.commit.slice(0, 12)} is not in this repository`;
      throw new ForgeError(what, "E_NO_COMMIT", 1);
    });
    const id = randomUUID();
    ctx.io.stdout.write(JSON.stringify({ response: "triggered", run_id: { id } }) + "\n");
    const runs: CiRunJson[] = [];
    const batch = { failed: 0 };
    let error: string | null = null;
    try {
      const opts = { docker: false, continueOnError: false, jobs: 1, at: commit, repeat: 1, independentTrials: false };
      for await (const r of runCi(ctx, { ...opts, noAdapter: true }, batch)) runs.push(r);
    } catch (err) {
      if (!isForgeError(err)) throw err;
      error = err.message;
      ctx.io.stderr.write(`${ctx.prog}: ${err.message}\n`);
    }
    const ok = error === null && batch.failed === 0 && runs.length > 0 && runs.every((r) => r.verdict === "pass");
    const forge = {
      event_type: trigger.eventType,
      commit,
      ...(trigger.patch ? { patch: trigger.patch } : {}),
      runs: runs.map((r) => ({ id: r.id, number: r.databaseId, verdict: r.verdict })),
      ...(error ? { error } : {}),
    };
    ctx.io.stdout.write(JSON.stringify({ response: "finished", result: ok ? "success" : "failure", forge }) + "\n");
    return error ? 1 : 0;
  },
});
