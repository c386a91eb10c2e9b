import {
  checkDefined,
  withKindLock,
  checkTitle,
  ciEnvFile,
  entityOrder,
  laterId,
  PR,
  PRS,
  recordCreated,
  ciSettings,
  createPr,
  currentAuthor,
  displayPath,
  expandMe,
  formatTimestamp,
  isForgeError,
  parseCiEnv,
  ForgeError,
  loadEntity,
  readStoreFile,
  UsageError,
  type PrJson,
  type Store,
} from "@forge/core";
import { defineCommand, emit, type Ctx, type Parsed, BODY_FLAGS } from "@forge/cli";
import { closingNumbers } from "./_closes.js";
import {
  checkBranch,
  currentBranch,
  defaultBranch,
  leftOutLine,
  makePatch,
  rangeCommits,
  type FillCommit,
} from "./_git.js";
import {
  confirm,
  JSON_FLAGS,
  jsonRequest,
  listArg,
  note,
  prRender,
  Prs,
  readBody,
  wanted,
  type Want,
} from "./_shared.js";

/** Options of `forge-pr create`. */
export interface CreatePrOptions {
  title: string;
  body: string;
  /** Default: `base` in ci.env, else `main`. */
  base?: string;
  /** Default: the current branch. */
  head?: string;
  draft: boolean;
  labels: string[];
  assignees: string[];
  milestone?: string;
  /** Issue refs the PR closes (`--issue`). */
  issues: string[];
  /** Reviewers asked (`--reviewer`). */
  reviewers?: string[];
  /** gh's `--fill` / `--fill-first`: title and body from the commits. */
  fill?: "fill" | "first";
  /** Whether `--title` / `--body` were given (they win over the filled values). */
  titleGiven?: boolean;
  bodyGiven?: boolean;
}

/** argv → options. */
export function parseCreateOptions(args: Parsed, body: string | undefined): CreatePrOptions {
  const fill: CreatePrOptions["fill"] = args.fill === true ? "fill" : args["fill-first"] === true ? "first" : undefined;
  if (args.fill === true && args["fill-first"] === true)
    throw new UsageError("`--fill` is not supported with `--fill-first`");
  if (!fill && args.title === undefined) throw new UsageError("must provide `--title` (or `--fill` or `--fill-first`)");
  const extra =
    fill || args.reviewer !== undefined
      ? {
          fill,
          reviewers: listArg(args, "reviewer"),
          titleGiven: args.title !== undefined,
          bodyGiven: body !== undefined,
        }
      : {};
  return {
    title: (args.title as string | undefined) ?? "",
    body: body ?? "",
    base: args.base as string | undefined,
    head: args.head as string | undefined,
    draft: args.draft === true,
    labels: listArg(args, "label"),
    assignees: listArg(args, "assignee"),
    milestone: args.milestone as string | undefined,
    issues: listArg(args, "issue"),
    ...extra,
  };
}

/**
 * gh's fill: one commit (or `--fill-first`) → its subject and body; more →
 * the head branch's name (`-`/`_` as spaces) and a `- **SUBJECT**` line per
 * commit, oldest first.
 * @param commits newest first, as `git log` lists them
 */
export function fillFrom(
  commits: readonly FillCommit[],
  head: string,
  mode: "fill" | "first"
): { title: string; body: string } {
  if (commits.length === 1 || mode === "first") {
    const c = commits[commits.length - 1]!;
    return { title: c.subject, body: c.body };
  }
  return {
    title: head.replace(/[-_]/g, " "),
    body: [...commits]
      .reverse()
      .map((c) => `- **${c.subject}**\n`)
      .join(""),
  };
}

/**
 * The base branch a project configured: `base` in `.forge/ci/ci.env`.
 * @throws InvalidFileError for a bad ci.env
 */
export function configuredBase(store: Store): string | undefined {
  const path = ciEnvFile(store);
  let text: string;
  try {
    text = readStoreFile(store, path);
  } catch (err) {
    if (isForgeError(err) && err.code === "E_NOT_FOUND") return undefined;
    throw err;
  }
  return ciSettings(parseCiEnv(text, displayPath(store, path))).base;
}

/**
 * The default base branch: `base` in `.forge/ci/ci.env`, else `main`.
 * @throws InvalidFileError for a bad ci.env
 */
export function defaultBase(store: Store): string {
  return configuredBase(store) ?? "main";
}

/**
 * Make the patch of base..head and create the PR. Everything is checked
 * (title, branch names, the range, issue refs) before anything is written.
 * @throws UsageError for a bad title or branch name; NotFoundError for a missing branch or issue; ForgeError for an
 * empty range
 */
export async function createPullRequest(ctx: Ctx, input: CreatePrOptions, want: Want): Promise<PrJson> {
  let opts = input;
  if (!opts.fill) checkTitle(opts.title);
  const prs = new Prs(ctx.io);
  const cwd = ctx.io.cwd;
  const head = await checkBranch(cwd, opts.head ?? (await currentBranch(cwd)));
  const base = await checkBranch(cwd, opts.base ?? configuredBase(prs.store) ?? (await defaultBranch(cwd)));
  if (opts.fill) {
    const commits = await rangeCommits(cwd, base, head);
    if (commits.length === 0) throw new ForgeError(`No commits between ${base} and ${head}`, "E_EMPTY_RANGE", 1);
    const f = fillFrom(commits, head, opts.fill);
    opts = { ...opts, title: opts.titleGiven ? opts.title : f.title, body: opts.bodyGiven ? opts.body : f.body };
    checkTitle(opts.title);
  }
  // gh: one open PR per head (and base); the second create names the first.
  const order = await entityOrder(prs.store, PRS, PR);
  for (let i = order.length - 1; i >= 0; i--) {
    const ref = order.at(i)!.ref;
    if (ref.archived) continue;
    const e = await loadEntity(prs.store, PRS, PR, ref);
    if (e.data.state === "open" && e.data.headRefName === head && e.data.baseRefName === base) {
      throw new ForgeError(
        `a pull request for branch "${head}" into branch "${base}" already exists: #${i + 1}`,
        "E_PR_EXISTS",
        1
      );
    }
  }
  const labels = checkDefined(await prs.defs(), opts.labels, opts.milestone);
  const closes: string[] = [];
  for (const ref of opts.issues) closes.push(await prs.issueId(ref));
  for (const n of closingNumbers(opts.body)) {
    const id = await prs.issueByNumber(n);
    if (id === undefined) ctx.log.warn(`no issue #${n} to close (not linked)`);
    else closes.push(id);
  }
  // forge's own writes (`.forge/`) never ride into a PR: left out, with one line naming them.
  const patch = await makePatch(cwd, base, head, prs.store.real);
  const left = leftOutLine(patch.left);
  if (left) note(ctx, left);
  const author = await currentAuthor(ctx.io.env, cwd);
  const id = await withKindLock(prs.store, PRS, async () => {
    const before = await entityOrder(prs.store, PRS, PR);
    const now = formatTimestamp();
    const id = createPr(prs.store, {
      title: opts.title,
      body: opts.body,
      author,
      baseRefName: base,
      headRefName: head,
      baseSha: patch.baseSha,
      headSha: patch.headSha,
      patch: patch.bytes,
      isDraft: opts.draft,
      closes,
      labels,
      assignees: expandMe(opts.assignees, author),
      milestone: opts.milestone,
      reviewers: expandMe(opts.reviewers ?? [], author),
      now,
      id: laterId(before, now),
    });
    recordCreated(prs.store, PRS, before, { createdAt: now, ref: { id, archived: false } });
    return id;
  });
  const { pr, number } = await prs.get(id);
  return prs.json(pr, number, want);
}

export default defineCommand({
  meta: {
    name: "create",
    description: "Create a pull request from base..head",
    help: {
      reads: [
        [".forge/prs/<id>/pr.md", "the PR (+ patch.diff, reviews/, comments/)"],
        [".forge/ci/ci.env", "base=<branch>: the default base"],
      ],
      env: [
        ["FORGE_AUTHOR", "who it is recorded as (default: git's forge.login, else user.name); also what @me means"],
      ],
      examples: [
        'forge-pr create -t "Fix the drain" -b "Closes #12." -H fix/drain',
        "forge-pr create --fill -B main --issue 12 -l bug",
        'forge-pr create -t "WIP" --draft --json number,url',
      ],
    },
  },
  args: {
    title: { type: "string", alias: "t", description: "title (required unless --fill)" },
    ...BODY_FLAGS,
    fill: { type: "boolean", alias: "f", description: "title and body from the commits" },
    base: {
      type: "string",
      alias: "B",
      description: "base branch (default: ci.env base, origin's HEAD, init.defaultBranch, main, master)",
    },
    head: { type: "string", alias: "H", description: "head branch (default: the current one)" },
    draft: { type: "boolean", alias: "d", description: "open as a draft" },
    label: { type: "string", alias: "l", multiple: true, description: "add labels" },
    assignee: { type: "string", alias: "a", multiple: true, description: "assign (@me: you)" },
    milestone: { type: "string", alias: "m", description: "milestone title" },
    issue: { type: "string", multiple: true, description: "issues the PR closes" },
    reviewer: { type: "string", alias: "r", multiple: true, description: "request reviews" },
    "fill-first": { type: "boolean", description: "title and body from the first commit" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const rec = await createPullRequest(ctx, parseCreateOptions(args, await readBody(ctx, args)), wanted(req, false));
    if (req) return void (await emit(ctx.io, ctx.out, [rec], prRender(args, req, true)));
    // gh: the new PR's URL on stdout (`url=$(gh pr create …)`); the confirmation on stderr.
    confirm(ctx, "Created", rec);
    await ctx.out.write(`${rec.url as string}\n`);
  },
});
