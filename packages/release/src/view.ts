import { NotFoundError, RELEASE_FIELDS, type ReleaseJson } from "@forge/core";
import { defineCommand, emit, type Ctx, type Parsed } from "@forge/cli";
import { formatRelease, jsonFlags, jsonRequest, Releases } from "./_shared.js";

/** Options of `forge-release view`. */
export interface ViewReleaseOptions {
  /** The tag; undefined means the latest release (as gh). */
  tag?: string;
}

/**
 * One release: the tag's, or the newest (an unreadable release file is
 * then reported on stderr and passed over).
 * @throws NotFoundError when there is none
 */
export async function viewRelease(ctx: Ctx, opts: ViewReleaseOptions): Promise<ReleaseJson> {
  const releases = new Releases(ctx.io);
  if (opts.tag !== undefined) return releases.get(ctx, opts.tag);
  const latest = (await releases.all(ctx)).releases[0];
  if (latest === undefined) throw new NotFoundError("no releases");
  return latest;
}

export default defineCommand({
  meta: {
    name: "view",
    description: "Show a release (the latest without a tag)",
    help: {
      reads: [[".forge/releases/<tag>.md", "the release: tag, commit, tree, artifacts, notes"]],
      examples: [
        "forge-release view",
        "forge-release view v1.2.0 --json assets",
        "forge-release view v1.2.0 --jq '.assets[].digest'",
      ],
    },
  },
  args: {
    tag: { type: "positional", valueHint: "tag", description: "the release's tag; none: the newest release" },
    ...jsonFlags(RELEASE_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args, RELEASE_FIELDS);
    const rec = await viewRelease(ctx, { tag: args.tag as string | undefined });
    await emit(ctx.io, ctx.out, [rec], {
      json: req,
      jq: args.jq as string | undefined,
      single: true,
      text: formatRelease,
    });
  },
});
