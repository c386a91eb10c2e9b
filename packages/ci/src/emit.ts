/**
 * `forge-ci emit k8s|nomad`: a batch staged for a cluster (the worker, the
 * tree as a tar, one job file per (arm, chunk)) and its manifest on stdout:
 * a Kubernetes Indexed Job, or a Nomad parameterized job (and, with
 * `--dispatch`, one `nomad job dispatch` argv per index as JSON lines).
 * No cluster is contacted: forge writes manifests, the user's engine runs
 * them (spec/hosts.md). HEAD is one arm; a PR is two (its base's tip, and
 * that plus its patch: a paired experiment).
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CI_RUNS, displayPath, ForgeError, gitTopLevel, kindDir, UsageError } from "@forge/core";
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import {
  checkedPosture,
  DEFAULT_CHUNK,
  headCommit,
  k8sJob,
  nomadDispatch,
  nomadJob,
  nomadPayload,
  NOMAD_PAYLOAD_MAX,
  Runs,
  stageBatch,
  type HostArm,
} from "@forge/runner";
import { CI_READS } from "./_shared.js";
import { commitOf, prTarget } from "./run.js";

function count(args: Parsed, k: string, dflt: number): number {
  const v = args[k] as string | undefined;
  if (v === undefined) return dflt;
  if (!/^[1-9][0-9]{0,2}$/.test(v)) throw new UsageError(`invalid ${k} '${v.slice(0, 20)}' (1 to 999)`);
  return Number(v);
}

export default defineCommand({
  meta: {
    name: "emit",
    description: "Stage a batch for a cluster and print its manifest (k8s Indexed Job, Nomad parameterized job)",
    help: {
      reads: CI_READS,
      examples: [
        "forge-ci emit k8s --repeat 40 --stage /mnt/forge > job.yaml",
        "forge-ci emit nomad 4 --repeat 20 --stage /srv/forge",
        "forge-ci emit nomad --repeat 20 --stage /srv/forge --dispatch",
      ],
      notes: [
        "The stage folder holds the bundle (forge-worker-<batch>.mjs, the tree's tar, forge-job-<batch>-<arm>-<chunk>" +
          ".json); mount it at --mount. Each job writes forge-job-…rec beside its file: the records come back on " +
          "that volume (or kubectl cp). Index = arm × chunks + chunk; the worker reads JOB_COMPLETION_INDEX.",
        "The worker exits 0 when it recorded a verdict and 75 on infrastructure trouble: the k8s Job fails that " +
          "index (no retry per index), ignoring disruptions.",
      ],
    },
  },
  args: {
    engine: { type: "positional", required: true, valueHint: "k8s|nomad", description: "the engine: k8s or nomad" },
    ref: {
      type: "positional",
      valueHint: "pr",
      description: "a PR: two arms, its base's tip and that plus its patch; none: HEAD, one arm",
    },
    repeat: { type: "string", valueHint: "n", description: "replicates per arm (default: 1)" },
    chunk: { type: "string", valueHint: "n", description: `replicates per job (default: ${DEFAULT_CHUNK})` },
    at: { type: "string", valueHint: "rev", description: "the commit instead of HEAD (no PR)" },
    stage: {
      type: "string",
      valueHint: "dir",
      description: "where the bundle is written (default: .forge/ci/runs/.hosts/<batch>/stage)",
    },
    image: { type: "string", valueHint: "image", description: "the image with node and git (default: node:20)" },
    mount: { type: "string", valueHint: "path", description: "where the bundle is mounted (default: /forge)" },
    dispatch: { type: "boolean", description: "nomad: the dispatch argv, one JSON array a line, instead of the job" },
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const engine = args.engine as string;
    if (engine !== "k8s" && engine !== "nomad")
      throw new UsageError(`unknown engine '${engine.slice(0, 20)}' (k8s or nomad)`);
    if (args.dispatch === true && engine !== "nomad") throw new UsageError("--dispatch is for nomad");
    const repeat = count(args, "repeat", 1);
    const chunk = count(args, "chunk", DEFAULT_CHUNK);
    const mount = (args.mount as string | undefined) ?? "/forge";
    if (!/^\/[A-Za-z0-9._/-]*$/.test(mount))
      throw new UsageError(`invalid mount '${mount.slice(0, 40)}' (an absolute path)`);
    const image = (args.image as string | undefined) ?? "node:20";
    if (!/^[A-Za-z0-9._/:@-]+$/.test(image)) throw new UsageError(`invalid image '${image.slice(0, 40)}'`);
    const runs = new Runs(ctx.io);
    const top = await gitTopLevel(ctx.io.cwd, ctx.io.env, "CI runs a commit");
    const p = await checkedPosture(runs.store, top, ctx.io.env, undefined, false);
    let arms: HostArm[];
    if (args.ref !== undefined) {
      if (args.at !== undefined) throw new UsageError("--at runs a commit: not with a PR ref");
      const t = await prTarget(runs, top, args.ref as string, "");
      arms = [
        { headSha: t.headSha, patch: null, patchSha256: null },
        { headSha: t.headSha, patch: t.patch, patchSha256: t.patchSha256 },
      ];
    } else {
      const at = args.at as string | undefined;
      arms = [
        { headSha: at === undefined ? await headCommit(top) : await commitOf(top, at), patch: null, patchSha256: null },
      ];
    }
    // The batch id is the content's: the same request stages the same names (manifests diff cleanly).
    const key = [p.envSha256, repeat, chunk, ...arms.map((a) => `${a.headSha}:${a.patchSha256 ?? "-"}`)].join("\n");
    const batch = createHash("sha256").update(key).digest("hex").slice(0, 12);
    const stage = args.stage
      ? resolve(ctx.io.cwd, args.stage as string)
      : join(kindDir(runs.store, CI_RUNS), ".hosts", batch, "stage");
    const staged = await stageBatch(
      { top, arms, replicates: repeat, chunk, posture: p, continueOnError: false, env: ctx.io.env },
      batch,
      stage
    );
    const b = {
      batch,
      worker: staged.base[0]!,
      arms: arms.length,
      chunks: staged.chunks,
      commit: arms[0]!.headSha,
      mount,
      image,
    };
    if (engine === "k8s") ctx.io.stdout.write(k8sJob(b));
    else {
      const payload = nomadPayload(b);
      if (Buffer.byteLength(payload) > NOMAD_PAYLOAD_MAX)
        throw new ForgeError("nomad: the dispatch payload is over 16 KiB", "E_PAYLOAD", 1);
      const file = join(stage, `forge-payload-${batch}.json`);
      writeFileSync(file, payload);
      if (args.dispatch === true)
        for (const argv of nomadDispatch(b, `forge-payload-${batch}.json`))
          ctx.io.stdout.write(JSON.stringify(argv) + "\n");
      else ctx.io.stdout.write(nomadJob(b));
    }
    const shown = args.stage ? (args.stage as string) : displayPath(runs.store, stage);
    ctx.io.stderr.write(`${ctx.prog}: bundle of ${arms.length * staged.chunks} jobs staged in ${shown}\n`);
    return 0;
  },
});
