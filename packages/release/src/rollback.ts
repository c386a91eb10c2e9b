import { currentAuthor, ForgeError, gitTopLevel, openStore } from "@forge/core";
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { ACTIVATION_FIELDS, activationsOf, Target } from "./_activation.js";
import { checkIdentity, type RecordedAsset } from "./_identity.js";
import { Releases, jsonFlags, jsonRequest } from "./_shared.js";
import { reconcilePending, switchAndCheck, type Switched } from "./_switch.js";
import { parseTargetOptions, reportSwitch, TARGET_FLAGS } from "./activate.js";

/** Options of `forge-release rollback`. */
export interface RollbackOptions {
  to: string;
  check?: string[];
  timeout: number;
}

/**
 * Return `DIR/current` to the release that was current before the current
 * one was activated (the `previous` of its latest successful activation),
 * after checking that release's identity and its installed copy; then the
 * check, as for activate. Rolling back again walks further back.
 * @throws ForgeError when nothing is current, there is nothing before it, or the previous release fails its checks
 */
export async function rollbackRelease(ctx: Ctx, opts: RollbackOptions): Promise<Switched> {
  const releases = new Releases(ctx.io);
  const store = openStore({ cwd: ctx.io.cwd, env: ctx.io.env });
  const env = ctx.io.env as NodeJS.ProcessEnv;
  const author = await currentAuthor(ctx.io.env, ctx.io.cwd);
  const target = new Target(opts.to, false);
  return target.locked(async () => {
    const recs = await reconcilePending(ctx, store, target, await activationsOf(store, target.dir));
    const cur = target.currentTag();
    if (cur === undefined)
      throw new ForgeError(`nothing is current in ${target.dir} (no current symlink)`, "E_TARGET", 1);
    const last = recs.filter((r) => r.action === "activate" && r.outcome === "active" && r.tag === cur).at(-1);
    if (last === undefined)
      throw new ForgeError(
        `${cur} was not activated in ${target.dir} by forge-release (no record); nothing to roll back to`,
        "E_TARGET",
        1
      );
    const prev = last.previous;
    if (prev === null)
      throw new ForgeError(
        `${cur} was the first release activated in ${target.dir}; nothing to roll back to`,
        "E_TARGET",
        1
      );
    const file = await releases.load(ctx, prev);
    await checkIdentity(file, await gitTopLevel(store.root, env, "a release is bound to a tag"), env);
    target.checkInstalled(prev, file.data.assets as RecordedAsset[]);
    return switchAndCheck(ctx, store, target, {
      action: "rollback",
      tag: prev,
      previous: cur,
      check: opts.check,
      timeout: opts.timeout,
      author,
    });
  });
}

export default defineCommand({
  meta: {
    name: "rollback",
    description: "Switch DIR/current back to the release active before it",
    help: {
      reads: [
        [".forge/releases/activations/", "which release was current before the current one"],
        [
          ".forge/releases/<tag>.md",
          "that release's identity, checked (digest, tag, tree) with its copy in DIR/releases/<tag>/",
        ],
      ],
      env: [
        ["FORGE_AUTHOR", "who the record names (default: git's forge.login, else user.name)"],
        ["FORGE_RELEASE_TAG, FORGE_RELEASE_DIR, FORGE_RELEASE_PREVIOUS", "set for the check"],
      ],
      examples: [
        "forge-release rollback --to /srv/app",
        "forge-release rollback --to /srv/app --check ./bin/smoke-test",
      ],
      notes: ["Again walks further back; the first release activated in DIR has nothing before it (exit 1)."],
    },
  },
  args: {
    ...TARGET_FLAGS,
    ...jsonFlags(ACTIVATION_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    jsonRequest(args, ACTIVATION_FIELDS);
    const done = await rollbackRelease(ctx, parseTargetOptions(args));
    return reportSwitch(ctx, args, done, "Rolled back to");
  },
});
