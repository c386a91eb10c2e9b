/**
 * Golden tests for every forge-task verb against the kanban fixture
 * (test/lib/kanban_fixture.ts). Goldens live in test/golden/task/.
 */
import test from "ava";
import { formatTimestamp } from "@forge/core";
import { checkCase, type Case } from "./lib/golden_cases.js";
import { KANBAN_IDS, kanbanRepo } from "./lib/kanban_fixture.js";
import { removeScratch } from "./lib/scratch.js";

test.after.always(removeScratch);

/** Cases that only read: they share one fixture repo. */
const READS: Case[] = [
  // list: every column in board order, oldest first in each; archived tasks left out
  { name: "list_human", args: ["list"] },
  { name: "list_json", args: ["list", "--json"] },
  { name: "list_status_todo", args: ["list", "--status", "todo", "--json", "number,status,title"] },
  // --status is repeatable and takes a comma list; the board order stays
  { name: "list_status_done_doing", args: ["list", "-s", "done,doing", "--json", "number,status,closedAt"] },
  { name: "list_status_done_doing", args: ["list", "-s", "done", "-s", "doing", "--json", "number,status,closedAt"] },
  { name: "list_assignee_alice", args: ["list", "--assignee", "alice", "--json", "number,assignees"] },
  { name: "list_assignee_me", args: ["list", "-a", "@me", "--json", "number,assignees"] },
  // --limit caps each column
  { name: "list_limit_1", args: ["list", "--limit", "1", "--json", "number,status"] },
  { name: "list_issue_field", args: ["list", "--json", "number,issue"] },
  { name: "list_jq_titles", args: ["list", "--jq", '.[] | select(.status=="todo") | .title'] },
  { name: "list_jq_empty", args: ["list", "-a", "nobody", "--jq", "length"] },
  { name: "list_nothing", args: ["list", "-a", "nobody", "--json"] },
  { name: "list_bad_status", args: ["list", "--status", "todo,open"], code: 2 },
  { name: "list_bad_limit", args: ["list", "-L", "0"], code: 2 },
  { name: "list_bad_field", args: ["list", "--json", "number,state"], code: 2 },
  // view: refs by number, #number, id and prefix; archived still viewable
  { name: "view_1_human", args: ["view", "1"] },
  { name: "view_1_json", args: ["view", "1", "--json"] },
  { name: "view_4_done", args: ["view", "#4", "--json", "number,status,closedAt,updatedAt"] },
  { name: "view_7_foreign_issue", args: ["view", "7"] },
  { name: "view_prefix", args: ["view", "bbcd0003", "--json", "number,title"] },
  { name: "view_id", args: ["view", "cc000007-0000-4000-8000-000000000007", "--json", "number,title"] },
  { name: "view_archived_5", args: ["view", "5", "--json", "number,title,isArchived,status"] },
  { name: "view_jq_issue", args: ["view", "2", "--jq", ".issue.number"] },
  { name: "view_ambiguous", args: ["view", "bbcd"], code: 1 },
  { name: "view_missing", args: ["view", "99"], code: 1 },
  { name: "view_no_ref", args: ["view"], code: 2 },
  { name: "unknown_verb", args: ["board"], code: 2 },
];

/** Cases that write: each gets a fresh copy of the fixture. */
const WRITES: Case[] = [
  {
    name: "create_json",
    args: ["create", "-t", "New task", "-b", "Body", "-a", "@me,bob", "--issue", "2", "--json"],
    then: ["list", "--status", "todo", "--json", "number,title,issue"],
  },
  {
    name: "create_human",
    args: ["create", "--title", "Plain"],
    then: ["view", "8", "--json", "number,title,status,author,issue,closedAt"],
  },
  { name: "create_issue_by_prefix", args: ["create", "-t", "By prefix", "--issue", "abcd5", "--json", "issue"] },
  {
    name: "create_body_stdin",
    args: ["create", "-t", "From stdin", "-F", "-", "--json", "body"],
    input: "line one\nline two\n",
  },
  { name: "create_no_title", args: ["create", "-b", "x"], code: 2 },
  { name: "create_two_line_title", args: ["create", "-t", "a\nb"], code: 2 },
  {
    name: "create_unknown_issue",
    args: ["create", "-t", "x", "--issue", "99"],
    code: 1,
    then: ["list", "--json", "number"],
  },
  { name: "move_1_doing", args: ["move", "1", "doing"], then: ["view", "1", "--json", "status,closedAt,updatedAt"] },
  { name: "move_2_done_json", args: ["move", "2", "done", "--json", "number,status,closedAt,updatedAt"] },
  { name: "move_4_out_of_done", args: ["move", "4", "todo", "--json", "number,status,closedAt,updatedAt"] },
  { name: "move_already", args: ["move", "3", "blocked", "--json", "number,status"] },
  { name: "move_bad_status", args: ["move", "1", "closed"], code: 2, then: ["view", "1", "--json", "status"] },
  { name: "move_no_status", args: ["move", "1"], code: 2 },
  { name: "move_missing", args: ["move", "99", "done"], code: 1 },
  { name: "done_1", args: ["done", "1"], then: ["view", "1", "--json", "status,closedAt"] },
  { name: "done_already", args: ["done", "4", "--json", "number,closedAt"] },
  {
    name: "edit_title_body_assignees",
    args: [
      "edit",
      "3",
      "-t",
      "Wait for a review",
      "-b",
      "ping carol",
      "--add-assignee",
      "@me,bob",
      "--remove-assignee",
      "carol",
      "--json",
      "title,body,assignees",
    ],
  },
  { name: "edit_issue", args: ["edit", "3", "--issue", "#2", "--json", "number,issue"] },
  { name: "edit_remove_issue", args: ["edit", "1", "--remove-issue", "--json", "number,issue"] },
  {
    name: "edit_human",
    args: ["edit", "2", "--title", "Fix the crash on start"],
    then: ["view", "2", "--json", "title,status"],
  },
  { name: "edit_nothing", args: ["edit", "1"], code: 2 },
  { name: "edit_issue_clash", args: ["edit", "1", "--issue", "2", "--remove-issue"], code: 2 },
  { name: "edit_empty_title", args: ["edit", "1", "-t", " "], code: 2, then: ["view", "1", "--json", "title"] },
  { name: "archive_1", args: ["archive", "1"], then: ["list", "--json", "number,title"] },
  { name: "archive_already", args: ["archive", "5"], code: 1 },
];

const since = formatTimestamp();
let shared = "";

test.before(async () => {
  shared = await kanbanRepo();
});

for (const c of READS) {
  test(`forge-task ${c.args.join(" ")} matches golden ${c.name}`, (t) =>
    checkCase(t, "forge-task", "task", c, shared, KANBAN_IDS, since));
}

for (const c of WRITES) {
  test(`forge-task ${c.args.join(" ").replace(/\n/g, "\\n")} matches golden ${c.name}`, async (t) => {
    await checkCase(t, "forge-task", "task", c, await kanbanRepo(), KANBAN_IDS, since);
  });
}
