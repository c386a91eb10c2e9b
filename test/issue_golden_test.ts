/**
 * Golden tests for every forge-issue verb: the built executable runs in a
 * temp repo holding the fixture store (test/lib/fixture.ts); stdout, stderr
 * and the exit code are the contract. Goldens live in test/golden/issue/:
 * `<case>.jsonl` (or `.txt` for human and jq output), `<case>.stderr` when
 * the case writes to stderr, `<case>.then.jsonl` for the read that follows a
 * write. A missing file means "prints nothing there".
 */
import test, { type ExecutionContext } from "ava";
import { formatTimestamp } from "@forge/core";
import { FIXTURE_IDS, fixtureRepo } from "./lib/fixture.js";
import { golden, scrub } from "./lib/golden.js";
import { run } from "./lib/run.js";
import { removeScratch } from "./lib/scratch.js";

test.after.always(removeScratch);

interface Case {
  /** Golden base name under test/golden/issue/. */
  name: string;
  args: string[];
  /** Expected exit code (0). */
  code?: number;
  input?: string;
  /** A read run after the command, compared with `<name>.then.jsonl`. */
  then?: string[];
}

/** Cases that only read: they share one fixture repo. */
const READS: Case[] = [
  // list: default (open, newest first, limit 30), human and JSON
  { name: "list_human", args: ["list"] },
  { name: "list_json", args: ["list", "--json"] },
  { name: "list_state_open", args: ["list", "--state", "open", "--json", "number,state"] },
  { name: "list_state_closed", args: ["list", "--state", "closed", "--json", "number,state,closedAt,title"] },
  { name: "list_state_all", args: ["list", "-s", "all", "--json", "number,state,title"] },
  { name: "list_state_all_human", args: ["list", "--state", "all"] },
  { name: "list_label_bug", args: ["list", "--label", "bug", "--json", "number,labels"] },
  // --label is AND; a comma list and a repeated flag mean the same thing
  { name: "list_label_bug_ui", args: ["list", "--label", "bug,ui", "--json", "number,title,labels"] },
  { name: "list_label_bug_ui", args: ["list", "-l", "bug", "-l", "ui", "--json", "number,title,labels"] },
  { name: "list_label_none", args: ["list", "--label", "bug,ui", "--label", "enhancement", "--json", "number"] },
  { name: "list_label_unknown", args: ["list", "--label", "nope", "--json"] },
  { name: "list_assignee_me", args: ["list", "--assignee", "@me", "--json", "number,assignees"] },
  { name: "list_assignee_bob", args: ["list", "-a", "bob", "--json", "number,assignees"] },
  { name: "list_author_carol", args: ["list", "--author", "carol", "--state", "all", "--json", "number,author,state"] },
  { name: "list_author_me", args: ["list", "-A", "@me", "--json", "number,author"] },
  { name: "list_milestone_v1", args: ["list", "--milestone", "v1", "--json", "number,milestone"] },
  { name: "list_milestone_v2_all", args: ["list", "-m", "v2", "-s", "all", "--json", "number,milestone,state"] },
  // --search: every term, case-insensitive, in title or body
  { name: "list_search_dark", args: ["list", "--search", "dark", "--json", "number,title"] },
  { name: "list_search_dark_mode", args: ["list", "-S", "dark mode", "--json", "number,title"] },
  { name: "list_limit_2", args: ["list", "--limit", "2", "--json", "number"] },
  { name: "list_all_limit_3", args: ["list", "--state", "all", "-L", "3", "--json", "number"] },
  { name: "list_jq_open_labels", args: ["list", "--jq", '.[] | select(.state=="OPEN") | .labels[].name'] },
  { name: "list_jq_length", args: ["list", "--state", "all", "--json", "number", "--jq", "length"] },
  { name: "list_jq_empty", args: ["list", "--label", "nope", "--jq", "."] },
  { name: "list_bad_limit_0", args: ["list", "--limit", "0"], code: 2 },
  { name: "list_bad_limit_word", args: ["list", "--limit", "many"], code: 2 },
  { name: "list_bad_state", args: ["list", "--state", "merged"], code: 2 },
  { name: "list_bad_field", args: ["list", "--json", "number,nope"], code: 2 },
  { name: "list_unknown_flag", args: ["list", "--bogus"], code: 2 },
  // view: body and comments; refs by number, #number, id, prefix; archived still viewable
  { name: "view_1_human", args: ["view", "1"] },
  { name: "view_1_json", args: ["view", "1", "--json"] },
  { name: "view_1_fields", args: ["view", "1", "--json", "title,number,comments"] },
  { name: "view_3_human", args: ["view", "3"] },
  { name: "view_hash_4", args: ["view", "#4", "--json", "number,id,title"] },
  { name: "view_id_1", args: ["view", "3f2a9c1e-7b4d-4e8a-9c01-5d6e7f809a1b", "--json", "number,title"] },
  { name: "view_prefix_4", args: ["view", "abcd5", "--json", "number,title"] },
  { name: "view_archived_7", args: ["view", "7", "--json", "number,title,isArchived,state"] },
  { name: "view_jq_title", args: ["view", "1", "--jq", ".title"] },
  { name: "view_jq_comment_authors", args: ["view", "1", "--jq", ".comments[].author.login"] },
  { name: "view_missing", args: ["view", "99"], code: 1 },
  { name: "view_ambiguous", args: ["view", "abcd"], code: 1 },
  { name: "view_short_prefix", args: ["view", "3f2"], code: 2 },
  { name: "view_not_a_ref", args: ["view", "zzzz"], code: 2 },
  { name: "view_no_ref", args: ["view"], code: 2 },
  { name: "unknown_verb", args: ["frobnicate"], code: 2 },
];

/** Cases that write: each gets a fresh copy of the fixture. */
const WRITES: Case[] = [
  {
    name: "create_json",
    args: ["create", "-t", "New thing", "-b", "Some body", "-l", "bug,enhancement", "-a", "@me", "-m", "v1", "--json"],
    then: ["list", "--json", "number,title", "--limit", "2"],
  },
  {
    name: "create_human",
    args: ["create", "--title", "Plain"],
    then: ["view", "9", "--json", "number,title,body,labels,author"],
  },
  {
    name: "create_body_stdin",
    args: ["create", "-t", "From stdin", "-F", "-", "--json", "number,body"],
    input: "line one\nline two\n",
  },
  { name: "create_no_title", args: ["create", "-b", "x"], code: 2 },
  { name: "create_empty_title", args: ["create", "-t", " "], code: 2 },
  { name: "create_two_line_title", args: ["create", "-t", "a\nb"], code: 2 },
  { name: "create_body_twice", args: ["create", "-t", "x", "-b", "a", "-F", "f"], code: 2 },
  { name: "comment_json", args: ["comment", "2", "-b", "Looks good", "--json", "number,comments"] },
  { name: "comment_human", args: ["comment", "#2", "--body", "hi"], then: ["view", "2", "--json", "comments"] },
  { name: "comment_no_body", args: ["comment", "2"], code: 2 },
  { name: "comment_missing", args: ["comment", "99", "-b", "x"], code: 1 },
  { name: "close_2", args: ["close", "2"], then: ["view", "2", "--json", "state,closed,closedAt,updatedAt"] },
  {
    name: "close_4_comment",
    args: ["close", "4", "--comment", "Done in v1", "--json", "number,state,closedAt"],
    then: ["view", "4", "--json", "state,comments"],
  },
  { name: "close_already_closed", args: ["close", "3"], then: ["view", "3", "--json", "state,closedAt"] },
  { name: "reopen_3", args: ["reopen", "3", "--json", "number,state,closed,closedAt,updatedAt"] },
  {
    name: "reopen_6_comment",
    args: ["reopen", "6", "-c", "Still slow"],
    then: ["view", "6", "--json", "state,comments"],
  },
  { name: "reopen_already_open", args: ["reopen", "1"] },
  {
    name: "edit_title_body",
    args: ["edit", "2", "--title", "Add a dark mode", "--body", "New body", "--json", "number,title,body"],
  },
  {
    name: "edit_labels",
    args: ["edit", "4", "--add-label", "enhancement", "--remove-label", "bug", "--json", "number,labels"],
  },
  // gh: a label the repository does not define is an error naming it.
  {
    name: "edit_undefined_label",
    args: ["edit", "4", "--add-label", "x"],
    code: 1,
    then: ["view", "4", "--json", "labels"],
  },
  { name: "create_undefined_milestone", args: ["create", "-t", "T", "-m", "v9"], code: 1 },
  {
    name: "edit_assignees",
    args: ["edit", "4", "--add-assignee", "@me,carol", "--remove-assignee", "bob", "--json", "number,assignees"],
  },
  { name: "edit_milestone", args: ["edit", "2", "--milestone", "v1", "--json", "number,milestone"] },
  { name: "edit_remove_milestone", args: ["edit", "1", "--remove-milestone", "--json", "number,milestone"] },
  { name: "edit_human", args: ["edit", "2", "--add-label", "bug"], then: ["view", "2", "--json", "labels,updatedAt"] },
  { name: "edit_nothing", args: ["edit", "1"], code: 2 },
  { name: "edit_milestone_clash", args: ["edit", "1", "--milestone", "v2", "--remove-milestone"], code: 2 },
  { name: "archive_2", args: ["archive", "2"], then: ["list", "--state", "all", "--json", "number,id,title"] },
  {
    name: "archive_4_json",
    args: ["archive", "4", "--json", "number,isArchived"],
    then: ["view", "4", "--json", "number,title,isArchived"],
  },
  { name: "archive_already", args: ["archive", "7"], code: 1 },
];

const since = formatTimestamp();
let shared = "";

test.before(async () => {
  shared = await fixtureRepo();
});

async function check(t: ExecutionContext, c: Case, cwd: string): Promise<void> {
  const clean = (s: string): string => scrub(s, { keep: FIXTURE_IDS, since, repo: cwd });
  const r = await run("forge-issue", c.args, { cwd, input: c.input });
  t.is(r.code, c.code ?? 0, r.stderr);
  const ext = c.args.includes("--json") && !c.args.includes("--jq") ? "jsonl" : "txt";
  golden(t, `issue/${c.name}.${ext}`, clean(r.stdout), true);
  golden(t, `issue/${c.name}.stderr`, clean(r.stderr), true);
  if (r.code !== 0) t.is(r.stderr.split("\n").length, 2, "an error is one stderr line");
  if (c.then) {
    const after = await run("forge-issue", c.then, { cwd });
    t.is(after.code, 0, after.stderr);
    golden(t, `issue/${c.name}.then.jsonl`, clean(after.stdout));
  }
}

for (const c of READS) {
  test(`forge-issue ${c.args.join(" ")} matches golden ${c.name}`, (t) => check(t, c, shared));
}

for (const c of WRITES) {
  test(`forge-issue ${c.args.join(" ").replace(/\n/g, "\\n")} matches golden ${c.name}`, async (t) => {
    await check(t, c, await fixtureRepo());
  });
}
