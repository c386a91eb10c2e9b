import {
  withKindLock, checkTitle, ciEnvFile, entityOrder, laterId, PR, PRS, recordCreated, ciSettings, createPr, currentAuthor, displayPath, expandMe, formatTimestamp, isForgeError, parseCiEnv,
  readStoreFile, type PrJson, type Store,
} from "@forge/core";
import { defineCommand, emit, type Ctx, type Parsed, BODY_FLAGS } from "@forge/cli";
import { closingNumbers } from "./_closes.js";
import { checkBranch, currentBranch, makePatch } from "./_git.js";
import { JSON_FLAGS, jsonRequest, listArg, prRender, Prs, readBody, wanted, type Want } from "./_shared.js";

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
}

/** argv → options. */
export function parseCreateOptions(args: Parsed, body: string | undefined): CreatePrOptions {
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
  };
}

/**
 * The default base branch: `base` in `.forge/ci/ci.env`, else `main`.
 * @throws InvalidFileError for a bad ci.env
 */
export function defaultBase(store: Store): string {
  const path = ciEnvFile(store);
  let text: string;
  try {
    text = readStoreFile(store, path);
  } catch (err) {
    if (isForgeError(err) && err.code === "E_NOT_FOUND") return "main";
    throw err;
  }
  return ciSettings(parseCiEnv(text, displayPath(store, path))).base ?? "main";
}

/**
 * Make the patch of base..head and create the PR. Everything is checked
 * (title, branch names, the range, issue refs) before anything is written.
 * @throws UsageError for a bad title or branch name; NotFoundError for a missing branch or issue; ForgeError for an empty range
 */
export async function createPullRequest(ctx: Ctx, opts: CreatePrOptions, want: Want): Promise<PrJson> {
  checkTitle(opts.title);
  const prs = new Prs(ctx.io);
  const cwd = ctx.io.cwd;
  const head = await checkBranch(cwd, opts.head ?? (await currentBranch(cwd)));
  const base = await checkBranch(cwd, opts.base ?? defaultBase(prs.store));
  const closes: string[] = [];
  for (const ref of opts.issues) closes.push(await prs.issueId(ref));
  for (const n of closingNumbers(opts.body)) {
    const id = await prs.issueByNumber(n);
    if (id === undefined) ctx.log.warn(`no issue #${n} to close (not linked)`);
    else closes.push(id);
  }
  const patch = await makePatch(cwd, base, head);
  const author = await currentAuthor(ctx.io.env, cwd);
  const id = await withKindLock(prs.store, PRS, async () => {
    const before = await entityOrder(prs.store, PRS, PR);
    const now = formatTimestamp();
    const id = createPr(prs.store, {
      title: opts.title, body: opts.body, author, baseRefName: base, headRefName: head, baseSha: patch.baseSha, headSha: patch.headSha,
      patch: patch.bytes, isDraft: opts.draft, closes, labels: opts.labels, assignees: expandMe(opts.assignees, author),
      milestone: opts.milestone, now, id: laterId(before, now),
    });
    recordCreated(prs.store, PRS, before, { createdAt: now, ref: { id, archived: false } });
    return id;
  });
  const { pr, number } = await prs.get(id);
  return prs.json(pr, number, want);
}

export default defineCommand({
  meta: { name: "create", description: "Create a pull request from base..head" },
  args: {
    title: { type: "string", alias: "t", required: true },
    ...BODY_FLAGS,
    base: { type: "string", alias: "B" },
    head: { type: "string", alias: "H" },
    draft: { type: "boolean", alias: "d" },
    label: { type: "string", alias: "l", multiple: true },
    assignee: { type: "string", alias: "a", multiple: true },
    milestone: { type: "string", alias: "m" },
    issue: { type: "string", multiple: true },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const rec = await createPullRequest(ctx, parseCreateOptions(args, await readBody(ctx, args)), wanted(req, false));
    await emit(ctx.io, ctx.out, [rec], prRender(args, req, true));
  },
});
