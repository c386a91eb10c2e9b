import {
  latestRelease,
  loadRelease,
  RELEASE_LIST_FIELDS,
  releaseListJson,
  UsageError,
  type ReleaseListJson,
} from "@forge/core";
import { defineCommand, emit, type Ctx, type Parsed } from "@forge/cli";
import { jsonFlags, jsonRequest, listRender, Releases } from "./_shared.js";

/** Options of `forge-release list`. */
export interface ListReleaseOptions {
  limit: number;
}

/**
 * argv → options.
 * @throws UsageError for a bad --limit
 */
export function parseListOptions(args: Parsed): ListReleaseOptions {
  const raw = (args.limit as string | undefined) ?? "30";
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1)
    throw new UsageError(`invalid limit '${raw.slice(0, 20)}' (a positive integer)`);
  return { limit: Number(raw) };
}

/** Releases newest first, at most `limit`; gh's "Latest" is `isLatest` (see `latestRelease`). */
export async function listReleases(
  ctx: Ctx,
  opts: ListReleaseOptions
): Promise<{ records: ReleaseListJson[]; failed: number }> {
  const rs = new Releases(ctx.io);
  const { releases, failed } = await rs.all(ctx);
  const marked = [];
  for (const r of releases)
    marked.push({ ...r, latest: (await loadRelease(rs.store, r.tagName)).data.latest === true });
  const latest = latestRelease(marked);
  return { records: releases.slice(0, opts.limit).map((r) => releaseListJson(r, r.tagName === latest)), failed };
}

export default defineCommand({
  meta: {
    name: "list",
    description: "List releases, newest first",
    help: {
      reads: [[".forge/releases/<tag>.md", "one file per release"]],
      examples: [
        "forge-release list",
        "forge-release list -L 1 --json tagName",
        "forge-release list --jq '.[].tagName'",
      ],
    },
  },
  args: {
    limit: { type: "string", alias: "L", valueHint: "n", default: "30", description: "list at most n releases" },
    ...jsonFlags(RELEASE_LIST_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args, RELEASE_LIST_FIELDS);
    const { records, failed } = await listReleases(ctx, parseListOptions(args));
    await emit(ctx.io, ctx.out, records, listRender(args, req));
    return failed ? 1 : 0;
  },
});
