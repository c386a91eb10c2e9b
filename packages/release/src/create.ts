import { readdirSync, realpathSync } from "node:fs";
import { relative } from "node:path";
import { pruneReleaseOut } from "./_retention.js";
import {
  atomicWrite,
  checkReleaseTag,
  checkTitle,
  ConflictError,
  currentAuthor,
  displayPath,
  ForgeError,
  formatFrontmatter,
  formatTimestamp,
  git,
  gitTopLevel,
  loadRelease,
  MAX_FILE_BYTES,
  mkdirInside,
  openStore,
  RELEASE,
  RELEASE_FIELDS,
  releaseBuildDir,
  releaseFile,
  releaseOutDir,
  releaseOutRoot,
  releaseToJson,
  storedBody,
  toFrontmatter,
  UsageError,
  validate,
  type ReleaseJson,
  type Store,
  lexists,
  compareReleases,
  listReleaseTags,
} from "@forge/core";
import { defineCommand, emit, readTextFlag, useColor, type Ctx, type Parsed } from "@forge/cli";
import { collectAssets, copyUploads, uploadsOf } from "./_assets.js";
import { identityDigest, treeOf } from "./_identity.js";
import { runBuild } from "./_build.js";
import { jsonFlags, jsonRequest, releaseRow } from "./_shared.js";

/** Options of `forge-release create`. */
export interface CreateReleaseOptions {
  tag: string;
  notes: string;
  /** `--title`: the release's name. */
  title?: string;
  /** `--target`: a commit-ish; default the existing tag's commit, else HEAD. */
  target?: string;
  /** gh's `--draft`, `--prerelease`, `--latest` marks and `--generate-notes`. */
  draft?: boolean;
  prerelease?: boolean;
  latest?: boolean;
  generateNotes?: boolean;
  /** gh's `FILE…` after the tag: uploaded as assets beside the build's. */
  files?: string[];
}

/**
 * argv → options.
 * @throws UsageError for a bad tag, title or target
 */
export function parseCreateOptions(args: Parsed, notes: string): CreateReleaseOptions {
  const tag = args.tag as string;
  checkReleaseTag(tag);
  const title = args.title as string | undefined;
  if (title !== undefined) checkTitle(title);
  const target = args.target as string | undefined;
  if (target !== undefined && (target === "" || target.startsWith("-") || /[\x00-\x1f\x7f]/.test(target))) {
    throw new UsageError(`invalid --target '${target.slice(0, 40)}'`);
  }
  if (Buffer.byteLength(notes) > MAX_FILE_BYTES - 4096)
    throw new UsageError("notes too long (the release file is limited to 256 KiB)");
  const marks: Partial<CreateReleaseOptions> = {};
  if (args.draft === true) marks.draft = true;
  if (args.prerelease === true) marks.prerelease = true;
  if (args.latest === true) marks.latest = true;
  if (args["generate-notes"] === true) marks.generateNotes = true;
  const files = (args.file as string[] | undefined) ?? [];
  if (files.length) marks.files = files;
  return { tag, notes, title, target, ...marks };
}

/**
 * gh's `--generate-notes`, from git: one `- SUBJECT (SHA7)` line per commit
 * since the previous release's commit (every commit for the first one).
 */
export async function generatedNotes(
  top: string,
  env: NodeJS.ProcessEnv,
  sha: string,
  previous: string | undefined
): Promise<string> {
  const range = previous ? `${previous}..${sha}` : sha;
  const r = await git(["log", "--no-merges", "--pretty=format:- %s (%h)", "--end-of-options", range], {
    cwd: top,
    env,
  });
  if (r.code !== 0)
    throw new ForgeError(
      `cannot list the commits for --generate-notes: ${r.stderr.split("\n")[0]!.replace(/^fatal: /, "")}`,
      "E_GIT",
      1
    );
  const lines = r.stdout.trim();
  return lines ? `## What's Changed\n${lines}\n` : "";
}

/**
 * The notes from `--notes` or `--notes-file` (`-` reads stdin); none is "".
 * @throws UsageError when both are given or the file cannot be read
 */
export async function readNotes(ctx: Ctx, args: Parsed): Promise<string> {
  return (await readTextFlag(ctx, args, "notes")) ?? "";
}

/**
 * Create a release: resolve the commit, build it in a disposable worktree,
 * hash every artifact under `releases/out/<tag>/`, tag the commit (a
 * lightweight tag, unless the tag already names it) and write
 * `releases/<tag>.md` with an exclusive create. Nothing is written to the
 * release file or the tags unless every step passed.
 * @throws ConflictError when the release exists (releases are immutable),
 * the tag names another commit or `OUT` is not empty; ForgeError when a
 * build step fails or writes where it must not
 */
export async function createRelease(ctx: Ctx, input: CreateReleaseOptions): Promise<ReleaseJson> {
  let opts = input;
  const store = openStore({ cwd: ctx.io.cwd, env: ctx.io.env });
  const env = ctx.io.env as NodeJS.ProcessEnv;
  const file = releaseFile(store, opts.tag);
  if (lexists(file))
    throw new ConflictError(`release ${opts.tag} already exists (${displayPath(store, file)}); releases are immutable`);
  const author = await currentAuthor(ctx.io.env, ctx.io.cwd);
  const top = await topLevel(store, env);
  // isReleaseTag already holds git's rules for its alphabet; ask git too, in case they differ.
  if ((await git(["check-ref-format", `refs/tags/${opts.tag}`], { cwd: top, env })).code !== 0)
    throw new UsageError(`invalid tag '${opts.tag}'`);
  const commitOf = async (rev: string): Promise<string | undefined> => {
    const r = await git(["rev-parse", "-q", "--verify", "--end-of-options", `${rev}^{commit}`], { cwd: top, env });
    return r.code === 0 ? r.stdout.trim() : undefined;
  };
  const tagged = await commitOf(`refs/tags/${opts.tag}`);
  let sha: string;
  if (opts.target !== undefined) {
    const t = await commitOf(opts.target);
    if (t === undefined)
      throw new ForgeError(`cannot resolve --target '${opts.target.slice(0, 40)}' to a commit`, "E_NO_COMMIT", 1);
    if (tagged !== undefined && tagged !== t)
      throw new ConflictError(`tag ${opts.tag} already points at ${tagged.slice(0, 7)}, not ${t.slice(0, 7)}`);
    sha = t;
  } else {
    const head = tagged ?? (await commitOf("HEAD"));
    if (head === undefined) throw new ForgeError("no commit to release (HEAD has none)", "E_NO_COMMIT", 1);
    sha = head;
  }
  const uploads = uploadsOf(ctx.io.cwd, opts.files ?? []);
  const out = releaseOutDir(store, opts.tag);
  if (lexists(out) && readdirSync(out).length > 0) {
    throw new ConflictError(
      `${displayPath(store, out)}/ already holds files (an earlier build?); move them away first`
    );
  }
  mkdirInside(store, out);
  await runBuild(ctx, {
    tag: opts.tag,
    sha,
    top,
    out,
    buildRel: relative(top, store.real + releaseBuildDir(store).slice(store.dir.length)),
    outRootRel: relative(top, realpathSync(releaseOutRoot(store))),
    uploads: uploads.length,
  });
  copyUploads(out, uploads);
  const assets = collectAssets(out);
  const data: Record<string, unknown> = {
    tagName: opts.tag,
    commit: sha,
    tree: await treeOf(top, sha, env),
    author,
    createdAt: formatTimestamp(),
    assets,
  };
  if (opts.title !== undefined) data.name = opts.title;
  if (opts.draft) data.isDraft = true;
  if (opts.prerelease) data.isPrerelease = true;
  if (opts.latest) data.latest = true;
  if (opts.generateNotes) {
    const tags = listReleaseTags(store).filter((t) => t !== opts.tag);
    let prev: { createdAt: string; tagName: string; commit: string } | undefined;
    for (const t of tags) {
      const d = (await loadRelease(store, t)).data;
      const r = { createdAt: d.createdAt as string, tagName: t, commit: d.commit as string };
      if (!prev || compareReleases(r, prev) < 0) prev = r;
    }
    const gen = await generatedNotes(top, env, sha, prev?.commit);
    opts = { ...opts, notes: opts.notes ? `${opts.notes.replace(/\n*$/, "")}\n\n${gen}` : gen };
  }
  const body = storedBody(opts.notes);
  data.digest = identityDigest(validate(RELEASE, data, displayPath(store, file)).data, body);
  const checked = validate(RELEASE, data, displayPath(store, file)).data;
  const text = formatFrontmatter(toFrontmatter(RELEASE, checked), body);
  if (Buffer.byteLength(text) > MAX_FILE_BYTES)
    throw new ForgeError(
      `release file would be larger than 256 KiB (${assets.length} assets); no release written`,
      "E_TOO_BIG",
      1
    );
  await writeRelease(store, opts.tag, sha, tagged === undefined, file, text, top, env);
  pruneReleaseOut(store);
  return releaseToJson(await loadRelease(store, opts.tag));
}

// --- internal ---

/** Tag the commit (when the tag is new), then create the file; a file that appeared meanwhile undoes our tag. */
async function writeRelease(
  store: Store,
  tag: string,
  sha: string,
  newTag: boolean,
  file: string,
  text: string,
  top: string,
  env: NodeJS.ProcessEnv
): Promise<void> {
  if (newTag) {
    const r = await git(["tag", "--", tag, sha], { cwd: top, env });
    if (r.code !== 0)
      throw new ForgeError(`cannot create tag ${tag}: ${r.stderr.split("\n")[0]!.replace(/^fatal: /, "")}`, "E_TAG", 1);
  }
  try {
    atomicWrite(file, text, { exclusive: true });
  } catch (err) {
    if (newTag) await git(["tag", "-d", "--", tag], { cwd: top, env });
    if ((err as NodeJS.ErrnoException).code === "EEXIST")
      throw new ConflictError(`release ${tag} already exists (${displayPath(store, file)}); releases are immutable`);
    throw err;
  }
}

/** The repository's top level (a realpath); the store must be inside it. */
async function topLevel(store: Store, env: NodeJS.ProcessEnv): Promise<string> {
  const top = await gitTopLevel(store.root, env, "a release builds a commit");
  const rel = relative(top, store.real);
  if (rel.startsWith("..")) throw new ForgeError("the store is not inside the repository", "E_NO_GIT", 1);
  return top;
}

export default defineCommand({
  meta: {
    name: "create",
    description: "Build the tagged commit and record its artifacts",
    help: {
      reads: [
        [
          ".forge/releases/build/*",
          "the build steps of the tagged commit (committed ones only): executables run in filename order in a " +
            "disposable worktree, with OUT (the empty artifact folder), FORGE_RELEASE_TAG, FORGE_RELEASE_COMMIT",
        ],
        [
          "$OUT",
          "= .forge/releases/out/<tag>/: every regular file the steps leave there is an artifact (size and sha256 " +
            "recorded)",
        ],
      ],
      env: [["FORGE_AUTHOR", "the release's author (default: git's forge.login, else user.name)"]],
      examples: [
        "forge-release create v1.2.0 -t 'v1.2.0' -n 'Fixes the drain.'",
        "git log --oneline v1.1.0.. | forge-release create v1.2.0 -F -",
        "forge-release create v1.2.0 --target main --json tagName,assets",
        "forge-release create v1.2.0 dist/app.tar.gz -n 'Fixes the drain.'",
      ],
      notes: [
        "Writes .forge/releases/<tag>.md once (releases are immutable) and tags the commit when the tag is new; " +
          "nothing when a step fails.",
        "Files after the tag are copied into OUT after the build and recorded as assets, as gh uploads them.",
      ],
    },
  },
  args: {
    tag: {
      type: "positional",
      required: true,
      valueHint: "tag",
      description: "the release's tag (A-Z a-z 0-9 . _ + -; an existing tag must name the commit)",
    },
    file: {
      type: "positional",
      valueHint: "file",
      multiple: true,
      description:
        "files to record as assets beside the build's, each named by its base name (gh's FILE#label: label unused)",
    },
    notes: { type: "string", alias: "n", valueHint: "text", description: "the release notes (markdown)" },
    "notes-file": {
      type: "string",
      alias: "F",
      valueHint: "file",
      description: "read the notes from a file; - reads stdin",
    },
    title: { type: "string", alias: "t", valueHint: "text", description: "the release's title (default: the tag)" },
    target: {
      type: "string",
      valueHint: "commit",
      description: "the commit-ish to release (default: the tag's commit, else HEAD)",
    },
    draft: { type: "boolean", alias: "d", description: "mark as a draft (isDraft)" },
    prerelease: { type: "boolean", alias: "p", description: "mark as a prerelease (isPrerelease)" },
    latest: { type: "boolean", description: "mark as the latest release (isLatest)" },
    "generate-notes": { type: "boolean", description: "append notes from the commits since the previous release" },
    ...jsonFlags(RELEASE_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args, RELEASE_FIELDS);
    checkReleaseTag(args.tag as string);
    const rec = await createRelease(ctx, parseCreateOptions(args, await readNotes(ctx, args)));
    const tick = useColor(ctx.io) ? "\x1b[32m✓\x1b[0m " : "";
    const n = rec.assets.length;
    ctx.io.stderr.write(
      `${tick}Created release ${rec.tagName} at ${rec.targetCommitish.slice(0, 7)} (${n} asset${n === 1 ? "" : "s"})\n`
    );
    const row = (r: ReleaseJson): string[] => releaseRow({ ...r, isLatest: true });
    await emit(ctx.io, ctx.out, [rec], { json: req, jq: args.jq as string | undefined, single: true, row });
  },
});
