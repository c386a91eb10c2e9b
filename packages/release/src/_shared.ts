/**
 * What every release verb shares: loading releases into gh's JSON, the
 * `--json`/`--jq` flags per verb, and the renderers.
 */
import {
  checkReleaseTag,
  compareReleases,
  isForgeError,
  listReleaseTags,
  loadRelease,
  NotFoundError,
  openStore,
  releaseToJson,
  type LoadedFile,
  type ReleaseJson,
  type ReleaseListJson,
  type Store,
} from "@forge/core";
import { type Ctx, type Io, type JsonRequest, type Parsed, type RenderOptions } from "@forge/cli";

/** An open store's releases. */
export class Releases {
  readonly store: Store;
  constructor(io: Io) {
    this.store = openStore({ cwd: io.cwd, env: io.env });
  }
  /**
   * One release as JSON; unknown-field warnings go to stderr.
   * @throws UsageError for a bad tag; NotFoundError; InvalidFileError
   */
  async get(ctx: Ctx, tag: string): Promise<ReleaseJson> {
    return releaseToJson(await this.load(ctx, tag));
  }
  /**
   * One release file, loaded and validated; unknown-field warnings go to stderr.
   * @throws UsageError for a bad tag; NotFoundError; InvalidFileError
   */
  async load(ctx: Ctx, tag: string): Promise<LoadedFile> {
    checkReleaseTag(tag);
    try {
      const f = await loadRelease(this.store, tag);
      for (const w of f.warnings) ctx.log.warn(w);
      return f;
    } catch (err) {
      if (isForgeError(err) && err.code === "E_NOT_FOUND") throw new NotFoundError(`no release '${tag}'`);
      throw err;
    }
  }
  /**
   * Every release, newest first. A file that cannot be read is reported on
   * stderr and counted; the rest are still returned.
   */
  async all(ctx: Ctx): Promise<{ releases: ReleaseJson[]; failed: number }> {
    const releases: ReleaseJson[] = [];
    let failed = 0;
    for (const tag of listReleaseTags(this.store)) {
      try {
        releases.push(await this.get(ctx, tag));
      } catch (err) {
        if (!isForgeError(err)) throw err;
        failed++;
        ctx.log.error(err);
      }
    }
    return { releases: releases.sort(compareReleases), failed };
  }
}

/** `--json`/`--jq` flags and request, shared by every noun. */
export { jsonFlags, jsonRequestOf as jsonRequest } from "@forge/cli";

/** A `release list` row, as gh prints it: title, type, tag, published. */
export function releaseRow(r: ReleaseListJson): string[] {
  return [r.name || r.tagName, r.isLatest ? "Latest" : "", r.tagName, r.publishedAt];
}

/** Render options for list records. */
export function listRender(args: Parsed, req: JsonRequest | null): RenderOptions<ReleaseListJson> {
  return {
    json: req,
    jq: args.jq as string | undefined,
    row: releaseRow,
    header: ["TITLE", "TYPE", "TAG NAME", "PUBLISHED"],
  };
}

/** A release as text (gh's raw, non-TTY `release view` layout, plus the commit and each asset's size and digest). */
export function formatRelease(r: ReleaseJson, tty: boolean): string {
  const lines = [
    `title:\t${r.name || r.tagName}`,
    `tag:\t${r.tagName}`,
    `draft:\t${r.isDraft}`,
    `prerelease:\t${r.isPrerelease}`,
    `author:\t${r.author.login}`,
    `created:\t${r.createdAt}`,
    `published:\t${r.publishedAt}`,
    `commit:\t${r.targetCommitish}`,
    ...r.assets.map((a) => `asset:\t${a.name}\t${a.size}\t${a.digest}`),
    "--",
    r.body,
  ];
  const text = lines.join("\n") + "\n";
  return tty ? text.replace(/^([a-z]+):\t/gm, (_, k: string) => `${k}: `) : text;
}
