import { currentAuthor, openStore, UsageError } from "@forge/core";
import { defineCommand, emit, useColor, type Ctx, type Parsed } from "@forge/cli";
import { ACTIVATION_FIELDS, activationsOf, Target } from "./_activation.js";
import type { RecordedAsset } from "./_identity.js";
import { jsonFlags, jsonRequest } from "./_shared.js";
import { checkArgv, reconcilePending, switchAndCheck, type Switched } from "./_switch.js";
import { verifyRelease } from "./verify.js";

/** Options of `forge-release activate`. */
export interface ActivateOptions {
  tag: string;
  /** The target folder (`--to`). */
  to: string;
  /** The check's argv (`--check`). */
  check?: string[];
  /** Seconds the check may run (`--timeout`). */
  timeout: number;
}

/** Default `--timeout` (seconds). */
export const CHECK_TIMEOUT = 300;

/**
 * argv → options (shared by rollback).
 * @throws UsageError for an empty `--to` or `--check`, or a bad `--timeout`
 */
export function parseTargetOptions(args: Parsed): { to: string; check?: string[]; timeout: number } {
  const to = args.to as string;
  if (to === "") throw new UsageError("--to needs a folder");
  const cmd = args.check as string | undefined;
  const check = cmd === undefined ? undefined : checkArgv(cmd);
  if (check !== undefined && check.length === 0) throw new UsageError("--check needs a command");
  const t = (args.timeout as string | undefined) ?? String(CHECK_TIMEOUT);
  if (!/^[1-9][0-9]{0,5}$/.test(t))
    throw new UsageError(`invalid --timeout '${t.slice(0, 20)}' (whole seconds, 1 or more)`);
  return { to, check, timeout: Number(t) };
}

/**
 * Activate a release in a target folder: `verify` it (a release that fails
 * is never installed or activated), install its artifacts as
 * `DIR/releases/<tag>/`, switch `DIR/current` to it atomically, run the
 * check there; on failure switch back to the previous release. An earlier
 * activation or rollback a kill interrupted is reconciled first.
 * @returns the record and, when the check failed, why
 * @throws ForgeError (E_VERIFY) for a release that fails verify; ConflictError when another activation holds the target
 */
export async function activateRelease(ctx: Ctx, opts: ActivateOptions): Promise<Switched> {
  const v = await verifyRelease(ctx, { tag: opts.tag });
  const store = openStore({ cwd: ctx.io.cwd, env: ctx.io.env });
  const author = await currentAuthor(ctx.io.env, ctx.io.cwd);
  const target = new Target(opts.to, true);
  return target.locked(async () => {
    await reconcilePending(ctx, store, target, await activationsOf(store, target.dir));
    const previous = target.currentTag();
    target.install(opts.tag, v.file.data.assets as RecordedAsset[], v.out);
    return switchAndCheck(ctx, store, target, {
      action: "activate",
      tag: opts.tag,
      previous,
      check: opts.check,
      timeout: opts.timeout,
      author,
    });
  });
}

/** The run of activate and rollback: the record with --json, a status line, exit 1 on a failed check. */
export async function reportSwitch(ctx: Ctx, args: Parsed, done: Switched, verb: string): Promise<number> {
  const req = jsonRequest(args, ACTIVATION_FIELDS);
  if (req) await emit(ctx.io, ctx.out, [done.record], { json: req, jq: args.jq as string | undefined, single: true });
  if (done.failure) {
    ctx.io.stderr.write(`${ctx.prog}: ${done.failure}\n`);
    return 1;
  }
  const r = done.record;
  const tick = useColor(ctx.io) ? "\x1b[32m✓\x1b[0m " : "";
  ctx.io.stderr.write(
    `${tick}${verb} ${r.tag} in ${r.dir}${r.previous ? ` (was ${r.previous})` : ""}${r.check ? "; check passed" : ""}\n`
  );
  return 0;
}

/** Flags shared by activate and rollback. */
export const TARGET_FLAGS = {
  to: {
    type: "string",
    required: true,
    valueHint: "dir",
    description: "the target folder, with releases/<tag>/ and the current symlink (required; activate makes it)",
  },
  check: {
    type: "string",
    valueHint: "cmd",
    default: "no check",
    description: "a command run in DIR/current after the switch (split on blanks, no shell); failing switches back",
  },
  timeout: {
    type: "string",
    valueHint: "s",
    default: String(CHECK_TIMEOUT),
    description: "seconds the check may run before it is killed (and counts as failed)",
  },
} as const;

export default defineCommand({
  meta: {
    name: "activate",
    description: "Install a verified release in DIR and switch DIR/current to it",
    help: {
      reads: [
        [".forge/releases/<tag>.md", "the release, verified first (digest, tag, tree, artifacts)"],
        [".forge/releases/out/<tag>/", "the artifacts copied to DIR/releases/<tag>/"],
        [".forge/releases/activations/", "the records (one per activation, pending then its outcome)"],
      ],
      env: [
        ["FORGE_AUTHOR", "who the record names (default: git's forge.login, else user.name)"],
        ["FORGE_RELEASE_TAG, FORGE_RELEASE_DIR, FORGE_RELEASE_PREVIOUS", "set for the check"],
      ],
      examples: [
        "forge-release activate v1.2.0 --to /srv/app",
        "forge-release activate v1.2.0 --to /srv/app --check ./bin/smoke-test --timeout 60",
        "forge-release activate v1.2.0 --to /srv/app --json outcome,previous",
      ],
      notes: [
        "A failing check leaves DIR/current on the previous release, exit 1. DIR/current moves by an atomic rename: " +
          "a kill leaves the old or the new release.",
        "An activation is a transaction: one a kill interrupted is closed by the next activate or rollback on DIR " +
          "(committed when it had no check left to pass, else aborted and current put back).",
      ],
    },
  },
  args: {
    tag: {
      type: "positional",
      required: true,
      valueHint: "tag",
      description: "the release to activate (it must pass verify)",
    },
    ...TARGET_FLAGS,
    ...jsonFlags(ACTIVATION_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    jsonRequest(args, ACTIVATION_FIELDS);
    const done = await activateRelease(ctx, { tag: args.tag as string, ...parseTargetOptions(args) });
    return reportSwitch(ctx, args, done, "Activated");
  },
});
