/**
 * Golden tests for every forge-pr verb: the built executable runs in a temp
 * repo holding the issue and PR fixtures and a small git history
 * (test/lib/pr_fixture.ts); stdout, stderr and the exit code are the
 * contract. Goldens live in test/golden/pr/: `<case>.jsonl` (or `.txt`),
 * `<case>.stderr` when the case writes to stderr, `<case>.then.jsonl` (or
 * `.then.txt`) for the command run after a write. New ids, the clock and
 * commit/patch digests (which depend on git's version) are placeholders.
 */
import test, { type ExecutionContext } from "ava";
import { execFileSync } from "node:child_process";
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { formatTimestamp } from "@forge/core";
import { golden, scrub } from "./lib/golden.js";
import { fixedGit, PR_FIXTURE_IDS, prFixtureRepo } from "./lib/pr_fixture.js";
import { baseEnv, BIN, run } from "./lib/run.js";
import { removeScratch } from "./lib/scratch.js";

test.after.always(removeScratch);

interface Case {
  /** Golden base name under test/golden/pr/. */
  name: string;
  args: string[];
  /** Expected exit code (0). */
  code?: number;
  input?: string;
  /** Prepare the repo first. */
  setup?: (cwd: string) => void;
  /** A command run after this one, compared with `<name>.then.*`. */
  then?: string[];
}

/** Cases that only read: they share one fixture repo. */
const READS: Case[] = [
  // list: open by default, newest first; drafts show as DRAFT; the CI verdict column
  { name: "list_human", args: ["list"] },
  { name: "list_json", args: ["list", "--json"] },
  { name: "list_state_closed", args: ["list", "--state", "closed", "--json", "number,state,closed,closedAt,mergedAt"] },
  { name: "list_state_merged", args: ["list", "-s", "merged", "--json", "number,state"] },
  { name: "list_state_all_human", args: ["list", "--state", "all"] },
  { name: "list_label_bug", args: ["list", "--label", "bug", "--json", "number,labels"] },
  { name: "list_label_two", args: ["list", "-l", "enhancement", "-l", "ui", "--json", "number,title"] },
  { name: "list_author_me", args: ["list", "--author", "@me", "--state", "all", "--json", "number,author"] },
  { name: "list_assignee_carol", args: ["list", "-a", "carol", "--json", "number,assignees"] },
  { name: "list_base_release", args: ["list", "--base", "release/1.x", "--json", "number,baseRefName"] },
  { name: "list_head", args: ["list", "-H", "fix/crash", "--json", "number,headRefName"] },
  { name: "list_search_drain", args: ["list", "--search", "DRAIN", "--json", "number,title"] },
  { name: "list_limit_1", args: ["list", "--limit", "1", "--json", "number"] },
  { name: "list_reviews", args: ["list", "--json", "number,reviews", "-L", "10"] },
  { name: "list_files", args: ["list", "--state", "all", "--json", "number,files,additions,deletions,changedFiles"] },
  { name: "list_checks", args: ["list", "--state", "all", "--json", "number,ci,statusCheckRollup"] },
  {
    name: "list_jq_review_states",
    args: ["list", "--jq", '.[] | [.number, (.reviews | map(.state) | join(","))] | @tsv'],
  },
  {
    name: "list_jq_closes",
    args: [
      "list",
      "--state",
      "all",
      "--jq",
      ".[] | select(.closingIssuesReferences | length > 0) | [.number, .closingIssuesReferences[0].number] | @tsv",
    ],
  },
  { name: "list_bad_state", args: ["list", "--state", "draft"], code: 2 },
  { name: "list_bad_limit", args: ["list", "--limit", "0"], code: 2 },
  { name: "list_bad_field", args: ["list", "--json", "number,nope"], code: 2 },
  // view: body, files, reviews, comments; refs by number, id, prefix; archived still viewable
  { name: "view_1_human", args: ["view", "1"] },
  { name: "view_1_json", args: ["view", "1", "--json"] },
  { name: "view_1_fields", args: ["view", "#1", "--json", "number,reviews,comments,files"] },
  {
    name: "view_4_merged",
    args: [
      "view",
      "4",
      "--json",
      "state,closed,closedAt,mergedAt,updatedAt,previousPatchSha256,closingIssuesReferences",
    ],
  },
  { name: "view_2_human", args: ["view", "2"] },
  { name: "view_prefix", args: ["view", "a6f7", "--json", "number,title,baseRefName,baseRefOid,headRefOid"] },
  { name: "view_archived_5", args: ["view", "5", "--json", "number,isArchived"] },
  {
    name: "view_stdin",
    args: ["view", "-", "--json", "number,title"],
    input: '{"number":3}\n{"id":"a2b3c4d5-e6f7-4a8b-9c0d-1e2f3a4b5c6d"}\n{"number":99}\n',
    code: 1,
  },
  { name: "view_jq", args: ["view", "1", "--jq", ".reviews[-1].state"] },
  { name: "view_missing", args: ["view", "99"], code: 1 },
  // gh: no ref picks the current branch's PR; main has none.
  { name: "view_no_ref", args: ["view"], code: 1 },
  // diff: the stored patch; a base commit that is not here is a one-line error
  { name: "diff_patch_1", args: ["diff", "1", "--patch"] },
  { name: "diff_1_no_base", args: ["diff", "1"], code: 1 },
  { name: "diff_both_flags", args: ["diff", "1", "--patch", "--name-only"], code: 2 },
  { name: "unknown_verb", args: ["frob", "1"], code: 2 },
];

/** PR #7 from main..topic, made with the built executable. */
const pr7 = (cwd: string): void => {
  execFileSync(join(BIN, "forge-pr"), ["create", "-t", "Wait for drain", "-H", "topic"], {
    cwd,
    env: baseEnv() as NodeJS.ProcessEnv,
    stdio: "ignore",
  });
};

/** PR #7, then topic moves on by one commit. */
const pr7Moved = (cwd: string): void => {
  pr7(cwd);
  fixedGit(cwd, ["checkout", "-q", "topic"]);
  writeFileSync(join(cwd, "README.md"), "# demo\n\nWaits for drain.\n");
  fixedGit(cwd, ["commit", "-qam", "Document the wait"]);
  fixedGit(cwd, ["checkout", "-q", "main"]);
};

const historyCiEnv = (cwd: string): void => {
  mkdirSync(join(cwd, ".forge", "ci"), { recursive: true });
  writeFileSync(join(cwd, ".forge", "ci", "ci.env"), "base=main\n");
};

/** Cases that write: each gets a fresh copy of the fixture. */
const WRITES: Case[] = [
  {
    name: "create_json",
    args: [
      "create",
      "-t",
      "Wait for drain",
      "-b",
      "Fixes #2, closes #4",
      "-H",
      "topic",
      "-l",
      "bug",
      "-a",
      "@me",
      "--json",
    ],
    then: ["list", "--json", "number,title,closingIssuesReferences,headRefName", "-L", "2"],
  },
  { name: "create_human", args: ["create", "--title", "Topic", "--head", "topic", "--draft"], then: ["diff", "7"] },
  {
    name: "create_issue_flag",
    args: [
      "create",
      "-t",
      "T",
      "-H",
      "topic",
      "--issue",
      "abcd5",
      "--issue",
      "1",
      "--json",
      "number,closingIssuesReferences",
    ],
  },
  {
    name: "create_ci_env_base",
    args: ["create", "-t", "T", "-H", "topic", "--json", "baseRefName,headRefName"],
    setup: historyCiEnv,
  },
  {
    name: "create_current_branch",
    args: ["create", "-t", "T", "--json", "baseRefName,headRefName"],
    setup: (cwd) => void fixedGit(cwd, ["checkout", "-q", "topic"]),
  },
  {
    name: "create_body_unknown_issue",
    args: ["create", "-t", "T", "-H", "topic", "-b", "Fixes #99", "--json", "number,closingIssuesReferences"],
  },
  {
    name: "create_empty_range",
    args: ["create", "-t", "T"],
    code: 1,
    then: ["list", "--state", "all", "--json", "number"],
  },
  {
    name: "create_detached",
    args: ["create", "-t", "T"],
    code: 2,
    setup: (cwd) => void fixedGit(cwd, ["checkout", "-q", "--detach"]),
  },
  { name: "create_no_head_branch", args: ["create", "-t", "T", "-H", "nope"], code: 1 },
  { name: "create_flag_as_head", args: ["create", "-t", "T", "--head=--upload-pack=x"], code: 2 },
  {
    name: "create_unknown_issue",
    args: ["create", "-t", "T", "-H", "topic", "--issue", "99"],
    code: 1,
    then: ["list", "--state", "all", "--json", "number"],
  },
  { name: "create_no_title", args: ["create", "-H", "topic"], code: 2 },
  { name: "create_two_line_title", args: ["create", "-t", "a\nb", "-H", "topic"], code: 2 },
  { name: "review_approve", args: ["review", "2", "--approve"], then: ["view", "2", "--json", "reviews"] },
  { name: "review_request_json", args: ["review", "2", "-r", "-b", "Split this up", "--json", "number,reviews"] },
  {
    name: "review_comment_stdin",
    args: ["review", "-", "--comment", "-b", "Looked at it"],
    input: '{"number":1}\n{"number":6}\n',
    then: ["list", "--json", "number,reviews"],
  },
  { name: "review_no_kind", args: ["review", "2", "-b", "x"], code: 2 },
  { name: "review_no_body", args: ["review", "2", "--request-changes"], code: 2 },
  { name: "comment_json", args: ["comment", "2", "-b", "Looks good", "--json", "number,comments"] },
  { name: "comment_no_body", args: ["comment", "2"], code: 2 },
  { name: "close_2", args: ["close", "2"], then: ["view", "2", "--json", "state,closed,closedAt,updatedAt"] },
  { name: "close_comment_json", args: ["close", "6", "-c", "Not for 1.x", "--json", "number,state,comments"] },
  { name: "close_already", args: ["close", "3"] },
  { name: "close_merged", args: ["close", "4"], code: 1 },
  {
    name: "close_stdin",
    args: ["close", "-"],
    input: '{"number":1}\n{"number":4}\n{"number":2}\n',
    code: 1,
    then: ["list", "--state", "all", "--json", "number,state"],
  },
  { name: "reopen_3", args: ["reopen", "3", "--json", "number,state,closed,closedAt"] },
  { name: "reopen_merged", args: ["reopen", "4"], code: 1 },
  {
    name: "edit_title_body_base",
    args: [
      "edit",
      "2",
      "-t",
      "Dark mode",
      "-b",
      "New body",
      "-B",
      "release/1.x",
      "--json",
      "number,title,body,baseRefName",
    ],
  },
  {
    name: "edit_labels_assignees",
    args: [
      "edit",
      "1",
      "--add-label",
      "enhancement",
      "--remove-label",
      "bug",
      "--add-assignee",
      "@me",
      "--remove-assignee",
      "bob",
      "--json",
      "labels,assignees",
    ],
  },
  {
    name: "edit_milestone",
    args: ["edit", "2", "-m", "v2", "--json", "milestone"],
    then: ["edit", "2", "--remove-milestone", "--json", "milestone"],
  },
  { name: "edit_bad_base", args: ["edit", "2", "--base", "a b"], code: 2 },
  { name: "edit_nothing", args: ["edit", "2"], code: 2 },
  { name: "archive_2", args: ["archive", "2"], then: ["list", "--state", "all", "--json", "number,title"] },
  { name: "archive_already", args: ["archive", "5"], code: 1 },
  { name: "update_no_branch", args: ["update", "1"], code: 1 },
  {
    name: "update_json",
    args: ["update", "7", "--json", "number,headRefOid,patchSha256,previousPatchSha256,ci,files,additions"],
    setup: pr7Moved,
    then: ["diff", "7", "--name-only"],
  },
  { name: "update_unchanged", args: ["update", "7"], setup: pr7 },
  {
    name: "checkout_7",
    args: ["checkout", "7", "-b", "review/7"],
    setup: pr7,
    then: ["view", "7", "--json", "number,headRefName"],
  },
  { name: "checkout_no_base", args: ["checkout", "1"], code: 1 },
  { name: "checkout_exists", args: ["checkout", "1", "-b", "topic"], code: 1 },
  {
    name: "create_ci_env_bad",
    args: ["create", "-t", "T", "-H", "topic"],
    code: 1,
    setup: (cwd) => {
      mkdirSync(join(cwd, ".forge", "ci"), { recursive: true });
      writeFileSync(join(cwd, ".forge", "ci", "ci.env"), "base=\n");
    },
  },
];

const since = formatTimestamp();
let shared = "";

test.before(async () => {
  shared = await prFixtureRepo();
});

const SHA = /\b[0-9a-f]{64}\b|\b[0-9a-f]{40}\b/g;

/** Scrub new ids, the clock and commit/patch digests that git made (the fixture's own stay). */
function clean(s: string, cwd: string): string {
  const out = scrub(s, { keep: PR_FIXTURE_IDS, since, repo: cwd });
  const seen = new Map<string, string>();
  return out.replace(SHA, (h) => {
    if (/^(.)\1+[0-9]?$/.test(h) || /^(0f)+$/.test(h)) return h; // the fixture's fake shas
    if (!seen.has(h)) seen.set(h, `<sha-${seen.size + 1}>`);
    return seen.get(h)!;
  });
}

async function check(t: ExecutionContext, c: Case, cwd: string): Promise<void> {
  c.setup?.(cwd);
  const r = await run("forge-pr", c.args, { cwd, input: c.input });
  t.is(r.code, c.code ?? 0, r.stderr);
  const ext = (args: string[]) => (args.includes("--json") && !args.includes("--jq") ? "jsonl" : "txt");
  golden(t, `pr/${c.name}.${ext(c.args)}`, clean(r.stdout, cwd), true);
  golden(t, `pr/${c.name}.stderr`, clean(r.stderr, cwd), true);
  if (r.code !== 0 && c.input === undefined) t.is(r.stderr.split("\n").length, 2, "an error is one stderr line");
  if (c.then) {
    const after = await run("forge-pr", c.then, { cwd });
    t.is(after.code, 0, after.stderr);
    golden(t, `pr/${c.name}.then.${ext(c.then)}`, clean(after.stdout, cwd));
  }
}

for (const c of READS) {
  test(`forge-pr ${c.args.join(" ")} matches golden ${c.name}`, (t) => check(t, c, shared));
}

for (const c of WRITES) {
  test(`forge-pr ${c.args.join(" ").replace(/\n/g, "\\n")} matches golden ${c.name}`, async (t) => {
    await check(t, c, await prFixtureRepo());
  });
}
