/**
 * `forge-merge <pr>`: the merge ritual (DESIGN §1.7, seeds M6). Check the
 * patch's paths, refuse a patch that landed already (SEC-08), apply it in
 * a fresh disposable worktree at the base's tip (SEC-05), commit there with
 * hooks off (SEC-06), run CI on that commit, and only on green move the
 * base; then mark the PR merged, close its issues and write the record.
 * A conflict or red CI stops with a record and the base unchanged.
 */
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join, posix } from "node:path";
import {
  atomicWrite,
  type CommitJson,
  ConflictError,
  currentAuthor,
  displayPath,
  entityOrder,
  ForgeError,
  formatFrontmatter,
  formatTimestamp,
  git,
  gitMessage,
  gitTopLevel,
  ISSUE,
  ISSUES,
  lexists,
  type LoadedEntity,
  loadEntity,
  MERGE_RECORD,
  mergeFile,
  NotFoundError,
  openStore,
  patchCommits,
  PR,
  printable,
  PRS,
  readPatch,
  resolveRef,
  splitPatchSeries,
  type Store,
  toFrontmatter,
  updateEntity,
  updateIssue,
  UsageError,
  validate,
  withWorktree,
} from "@forge/core";
import { runCi as defaultRunCi, type RunCi } from "./_ci.js";
import { advanceBase, checkLive } from "./_checkout.js";
import { conflictFiles } from "./_conflicts.js";
import { findLanded } from "./_landed.js";
import { checkPatchPaths, refusal } from "./_patch_paths.js";
import { patchId } from "./_patch_id.js";

/** Options of `forge-merge <pr>`. */
export interface MergeOptions {
  /** A PR number, id or id prefix. */
  ref: string;
  /**
   * gh's method: `squash` (default) lands one commit; `rebase` keeps the
   * series' commits (each with its own message and author); `merge` lands
   * one commit with gh's merge-commit message.
   */
  method?: "squash" | "rebase" | "merge";
  /** gh's `--subject` / `--body`: the (last) commit's message. */
  subject?: string;
  body?: string;
}

/** The world a merge runs in (injectable for tests). */
export interface MergeContext {
  cwd: string;
  env: Record<string, string | undefined>;
  runCi?: RunCi;
  now?: () => string;
  newId?: () => string;
}

/** The outcome of `forge-merge <pr>`: one JSON line. */
export interface MergeResult {
  /** The merge record's id (`.forge/merges/<id>.md`), null when none was written. */
  id: string | null;
  verdict: "merged" | "conflict" | "ci-failed" | "already-merged";
  /** When the attempt was decided (the record's createdAt). */
  createdAt: string;
  /** The base branch (`base` under the record's name, so the line is a merge record forge-export reads). */
  baseRefName: string;
  /** Always empty: forge-merge resolves no conflict itself. */
  resolved: string[];
  pr: { number: number; id: string };
  base: string;
  /** The new tip of the base (merged only). */
  commit: string | null;
  /** What happened to the live checkout: "updated" (HEAD is the base), "ref-only", or "untouched". */
  checkout: "updated" | "ref-only" | "untouched";
  conflicts: string[];
  failedStep: string | null;
  /** The CI run (`forge-ci view <id>`), when CI ran. */
  ciRun: string | null;
  /** The merge record written (null when none was). */
  record: string | null;
  /** For already-merged: the record and PR that landed this patch, and what matched. */
  landed: { record: string; pr: string; number: number | null; by: string } | null;
  closedIssues: Array<{ number: number | null; id: string }>;
  patchSha256: string;
  patchId: string | null;
}

/**
 * Merge a PR.
 * @returns the outcome; `verdict !== "merged"` means exit 1
 * @throws UsageError for a bad ref; NotFoundError; ConflictError when the PR is
 *   closed or the live checkout is unsafe to advance; ForgeError (E_UNSAFE_PATCH)
 *   for a patch naming a dangerous path — in every throw case nothing was changed
 */
export async function mergePr(ctx: MergeContext, opts: MergeOptions): Promise<MergeResult> {
  const env = ctx.env as NodeJS.ProcessEnv;
  const now = ctx.now ?? (() => formatTimestamp());
  const newId = ctx.newId ?? randomUUID;
  const store = openStore({ cwd: ctx.cwd, env: ctx.env });
  const top = await gitTopLevel(store.root, env, "a merge needs one");
  const order = await entityOrder(store, PRS, PR);
  const r = resolveRef(order, opts.ref, "pull request", order.errors);
  const pr = await loadEntity(store, PRS, PR, r.ref);
  const number = r.number;
  const base = pr.data.baseRefName as string;
  const sha256 = pr.data.patchSha256 as string;
  const result = (verdict: MergeResult["verdict"], more: Partial<MergeResult> = {}): MergeResult => ({
    verdict,
    pr: { number, id: pr.ref.id },
    base,
    commit: null,
    checkout: "untouched",
    conflicts: [],
    failedStep: null,
    ciRun: null,
    record: null,
    landed: null,
    closedIssues: [],
    patchSha256: sha256,
    patchId: null,
    baseRefName: base,
    resolved: [],
    ...more,
    id: more.record ?? null,
    createdAt: more.createdAt ?? now(),
  });
  if (pr.data.state === "closed") throw new ConflictError(`pull request #${number} is closed; reopen it to merge it`);
  const patch = readPatch(store, pr);
  checkPatchPaths(patch.toString("latin1"));
  const pid = await patchId(patch, top, env);
  const landed = await findLanded(store, sha256, pid);
  if (landed || pr.data.state === "merged") {
    const i = landed ? order.entries.findIndex((e) => e.ref.id === landed.pr) : -1;
    const l = landed ? { record: landed.record, pr: landed.pr, number: i < 0 ? null : i + 1, by: landed.by } : null;
    return result("already-merged", { patchId: pid, landed: l, commit: landed?.commit ?? null });
  }
  await checkBranchName(top, base, env);
  const old = await branchTip(top, base, env);
  const live = await checkLive(top, store, base, env);
  const author = await currentAuthor(ctx.env, ctx.cwd);
  const run = ctx.runCi ?? defaultRunCi;

  const attempt = await withWorktree(top, old, env, async (dir, tmp) => {
    const file = join(tmp, "patch.diff");
    writeFileSync(file, patch);
    // One `git apply` of a whole series gets some series wrong (a file added then deleted stays; a file
    // added then renamed "does not exist"), so the series is split as `git am` splits it and each
    // commit's patch is checked (`git apply --check`), then applied, in order; then one commit.
    const parts = await splitPatchSeries(file, join(tmp, "parts"), dir, env);
    const series = opts.method === "rebase" ? patchCommits(patch.toString("utf8")) : [];
    for (const part of parts) {
      const check = await git(["apply", "--check", "--index", "--whitespace=nowarn", part], { cwd: dir, env });
      if (check.code !== 0) {
        const files = conflictFiles(check.stderr);
        if (files.length === 0) {
          const why = gitMessage(check.stderr);
          throw new ForgeError(`git apply refused the patch: ${why}; nothing was applied`, "E_PATCH_REFUSED", 1);
        }
        return { kind: "conflict" as const, files };
      }
      const applied = await git(["apply", "--index", "--whitespace=nowarn", part], { cwd: dir, env });
      if (applied.code !== 0) throw new ForgeError(`git apply failed: ${gitMessage(applied.stderr)}`, "E_GIT", 1);
      if (opts.method === "rebase" && part !== parts[parts.length - 1]) {
        await commitPart(dir, series[parts.indexOf(part)], await identity(top, env, pr, patch, author));
      }
    }
    await checkSymlinks(dir, old, env);
    const commitEnv = await identity(top, env, pr, patch, author);
    const title = pr.data.title as string;
    const merges = `Merges PR #${number} (${pr.ref.id})`;
    const msg =
      opts.method === "rebase"
        ? seriesMessage(series[parts.length - 1], commitEnv)
        : opts.subject !== undefined || opts.body !== undefined
          ? `${opts.subject ?? title}${opts.body ? `\n\n${opts.body}` : ""}\n\n${merges}`
          : opts.method === "merge"
            ? `Merge pull request #${number} from ${pr.data.headRefName as string}\n\n${title}\n\n${merges}`
            : `${title}\n\n${merges}`;
    const c = await git([...COMMIT, msg], { cwd: dir, env: commitEnv });
    if (c.code !== 0) throw new ForgeError(`git commit failed: ${gitMessage(c.stderr || c.stdout)}`, "E_GIT", 1);
    const head = (await git(["rev-parse", "HEAD"], { cwd: dir, env })).stdout.trim();
    if (live.onBase) await checkNothingInTheWay(top, dir, old, head, env);
    const ci = await run(dir, {
      store,
      top,
      baseSha: old,
      patch,
      patchSha256: sha256,
      pr: { id: pr.ref.id, title: pr.data.title as string },
      env,
    });
    return { kind: "ci" as const, head, ci };
  });

  const createdAt = now();
  const recordId = newId();
  const rec = {
    id: recordId,
    pr: pr.ref.id,
    patchSha256: sha256,
    patchId: pid ?? undefined,
    baseRefName: base,
    createdAt,
    resolved: [] as string[],
  };
  if (attempt.kind === "conflict") {
    const n = attempt.files.length;
    const listed = listedConflicts(attempt.files);
    const more = listed.length < n ? ` (the first ${listed.length} are listed)` : "";
    const files = `${n} file${n === 1 ? "" : "s"}${more}`;
    const failed = `\`git apply --check\` failed on ${files} against ${base} at ${old.slice(0, 12)}`;
    writeRecord(
      store,
      { ...rec, verdict: "conflict", conflicts: listed },
      `${failed}; nothing was applied. Rebase the patch on \`${base}\` and run \`forge-merge\` again.\n`
    );
    return result("conflict", { conflicts: attempt.files, record: recordId, patchId: pid, createdAt });
  }
  if (attempt.ci.verdict !== "pass") {
    const step = attempt.ci.failedStep ?? undefined;
    const ended = attempt.ci.verdict === "fail" ? "failed" : `ended ${attempt.ci.verdict}`;
    writeRecord(
      store,
      { ...rec, verdict: "ci-failed", failedStep: step, conflicts: [] },
      `CI ${ended}${step ? ` at step \`${step}\`` : ""} on the merge of this patch into ${base} ` +
        `at ${old.slice(0, 12)}; ${base} was not changed.\n`
    );
    return result("ci-failed", {
      failedStep: attempt.ci.failedStep,
      ciRun: attempt.ci.run,
      record: recordId,
      patchId: pid,
      createdAt,
    });
  }
  const checkout = await advanceBase(top, base, old, attempt.head, live, `forge-merge: PR #${number}`, env);
  writeRecord(
    store,
    { ...rec, verdict: "merged", commit: attempt.head, conflicts: [] },
    `Merged into ${base} as ${attempt.head.slice(0, 12)} (fast-forward from ${old.slice(0, 12)}); ` +
      `CI passed${attempt.ci.run ? ` (run ${attempt.ci.run})` : ""}.\n`
  );
  // Reloaded: the CI run has just set the PR's `ci`.
  updateEntity(PR, await loadEntity(store, PRS, PR, pr.ref), (d) => {
    d.state = "merged";
    d.mergedAt = createdAt;
  });
  const closedIssues = await closeIssues(store, pr.data.closes as string[], createdAt);
  return result("merged", {
    commit: attempt.head,
    checkout,
    ciRun: attempt.ci.run,
    record: recordId,
    closedIssues,
    patchId: pid,
    createdAt,
  });
}

/** `git commit` with hooks and signing off and the message as given (`-m` last: the message follows). */
const COMMIT = [
  "-c",
  "commit.gpgSign=false",
  "commit",
  "--no-verify",
  "--allow-empty",
  "--quiet",
  "--cleanup=verbatim",
  "-m",
];

/** A series commit's message; its author and date go into `env` (`--rebase` keeps them). */
function seriesMessage(c: CommitJson | undefined, env: NodeJS.ProcessEnv): string {
  if (!c) return "commit";
  const a = c.authors[0];
  if (a?.name) env.GIT_AUTHOR_NAME = a.name;
  if (a?.email) env.GIT_AUTHOR_EMAIL = a.email;
  if (c.authoredDate) env.GIT_AUTHOR_DATE = c.authoredDate;
  return `${c.messageHeadline}${c.messageBody ? `\n\n${c.messageBody}` : ""}`;
}

/** Commit what one series part applied, with its own message and author (`--rebase`). */
async function commitPart(dir: string, c: CommitJson | undefined, base: NodeJS.ProcessEnv): Promise<void> {
  const cenv = { ...base };
  const msg = seriesMessage(c, cenv);
  const r = await git([...COMMIT, msg], { cwd: dir, env: cenv });
  if (r.code !== 0) throw new ForgeError(`git commit failed: ${gitMessage(r.stderr || r.stdout)}`, "E_GIT", 1);
}

/**
 * The conflicts a record lists: all of them, or as many as fit in about
 * 128 KiB, so the record stays readable (256 KiB cap) — an unreadable
 * record would stop every later merge (SEC-08 cannot rule it out).
 */
export function listedConflicts(files: string[], budget = 128 * 1024): string[] {
  let size = 0;
  const out: string[] = [];
  for (const f of files) {
    size += Buffer.byteLength(f) + 8;
    if (size > budget) break;
    out.push(f);
  }
  return out;
}

// --- internal ---

/**
 * A symlink the patch creates or changes must point inside the repository
 * and not into `.git`: the fast-forward would put it in the live checkout,
 * where any tool could follow it (SEC-05). Checked on the applied index.
 * @throws ForgeError (E_UNSAFE_PATCH) naming the link; nothing has been merged
 */
async function checkSymlinks(dir: string, old: string, env: NodeJS.ProcessEnv): Promise<void> {
  const r = await git(["diff", "--cached", "--raw", "-z", "--no-renames", "--no-abbrev", old], { cwd: dir, env });
  const f = r.stdout.split("\0");
  for (let i = 0; i + 1 < f.length; i += 2) {
    const m = /^:\d{6} (\d{6}) [0-9a-f]+ ([0-9a-f]+) [A-Z]/.exec(f[i]!);
    if (!m || m[1] !== "120000") continue;
    const path = f[i + 1]!;
    const target = (await git(["cat-file", "blob", m[2]!], { cwd: dir, env })).stdout;
    const resolved = posix.normalize(posix.join(posix.dirname(path), target));
    const bad =
      target.startsWith("/") || resolved === ".." || resolved.startsWith("../") || refusal(resolved, false) !== null;
    if (bad) {
      const where = "a symlink out of the repository or into .git; nothing was merged";
      throw new ForgeError(`refused: the patch makes '${oneLine(path)}' ${where}`, "E_UNSAFE_PATCH", 1);
    }
  }
}

/**
 * Before CI: a file the merge adds must not be an untracked file in the
 * live checkout (the fast-forward would refuse after CI ran for nothing).
 * @throws ConflictError naming the file; nothing has been merged
 */
async function checkNothingInTheWay(
  top: string,
  dir: string,
  old: string,
  head: string,
  env: NodeJS.ProcessEnv
): Promise<void> {
  const r = await git(["diff", "--name-only", "-z", "--no-renames", "--diff-filter=A", old, head], { cwd: dir, env });
  for (const f of r.stdout.split("\0").filter((x) => x !== "")) {
    if (lexists(join(top, f))) {
      const then = "where the merge adds a file; move it away and run forge-merge again (nothing was merged)";
      throw new ConflictError(`the checkout has an untracked '${oneLine(f)}' ${then}`);
    }
  }
}

/** A path safe in a one-line message: at most 80 characters, control characters shown as `?`. */
function oneLine(path: string): string {
  return printable(path, 80);
}

/** Validate and write a merge record (exclusive create: records are never rewritten). */
function writeRecord(store: Store, data: Record<string, unknown>, body: string): void {
  const path = mergeFile(store, data.id as string);
  const v = validate(MERGE_RECORD, data, displayPath(store, path));
  atomicWrite(path, formatFrontmatter(toFrontmatter(MERGE_RECORD, v.data), body), { exclusive: true });
}

/** Close the open issues a merged PR references; the ones closed, with their numbers. */
async function closeIssues(
  store: Store,
  ids: string[],
  at: string
): Promise<Array<{ number: number | null; id: string }>> {
  if (ids.length === 0) return [];
  const order = await entityOrder(store, ISSUES, ISSUE);
  const out: Array<{ number: number | null; id: string }> = [];
  for (const id of ids) {
    const i = order.entries.findIndex((e) => e.ref.id === id);
    if (i < 0) continue; // an issue this clone does not have: nothing to close here
    const issue = await loadEntity(store, ISSUES, ISSUE, order.entries[i]!.ref);
    if (issue.data.state !== "open") continue;
    updateIssue(issue, (d) => {
      d.state = "closed";
      d.closedAt = at;
    });
    out.push({ number: i + 1, id });
  }
  return out;
}

/**
 * The commit's environment: author = the PR's author (email from the
 * patch's first `From:` header, else `<author>@forge.invalid`); committer =
 * git's identity, else the merger at forge.invalid.
 */
async function identity(
  top: string,
  env: NodeJS.ProcessEnv,
  pr: LoadedEntity,
  patch: Buffer,
  merger: string
): Promise<NodeJS.ProcessEnv> {
  const name = pr.data.author as string;
  const email = fromEmail(patch) ?? `${localPart(name)}@forge.invalid`;
  const out: NodeJS.ProcessEnv = { ...env, GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email };
  const ident = await git(["var", "GIT_COMMITTER_IDENT"], { cwd: top, env });
  if (ident.code !== 0) {
    out.GIT_COMMITTER_NAME = merger;
    out.GIT_COMMITTER_EMAIL = `${localPart(merger)}@forge.invalid`;
  }
  return out;
}

/** The email of the patch's first `From:` header, if it has a plain one. */
export function fromEmail(patch: Buffer): string | null {
  const head = patch.subarray(0, 64 * 1024).toString("utf8");
  const m = /^From: .*<([^<>\s]+@[^<>\s]+)>\s*$/m.exec(head.split("\n\n")[0] ?? "");
  return m && m[1]!.length <= 254 ? m[1]! : null;
}

function localPart(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|[-.]+$/g, "") || "unknown";
}

async function checkBranchName(top: string, base: string, env: NodeJS.ProcessEnv): Promise<void> {
  // eslint-disable-next-line no-control-regex
  const bad =
    base.startsWith("-") ||
    /[\x00-\x1f\x7f]/.test(base) ||
    (await git(["check-ref-format", "--branch", base], { cwd: top, env })).code !== 0;
  if (bad) throw new UsageError(`the PR's base '${base.slice(0, 60)}' is not a branch name`);
}

async function branchTip(top: string, base: string, env: NodeJS.ProcessEnv): Promise<string> {
  const r = await git(["rev-parse", "--verify", "--quiet", `refs/heads/${base}^{commit}`], { cwd: top, env });
  const sha = r.stdout.trim();
  if (r.code !== 0 || !/^[0-9a-f]{40,64}$/.test(sha)) {
    throw new NotFoundError(`no base branch '${base.slice(0, 60)}' in this repository`);
  }
  return sha;
}
