/**
 * Golden tests for every forge-milestone verb against the kanban fixture's
 * milestones.md: 1 v0.9 (closed), 2 v1 (issues #1 and #4 open), 3 v2 (issue
 * #5 closed). Goldens live in test/golden/milestone/.
 */
import test from "ava";
import { formatTimestamp } from "@forge/core";
import { checkCase, type Case } from "./lib/golden_cases.js";
import { KANBAN_IDS, kanbanRepo } from "./lib/kanban_fixture.js";
import { removeScratch } from "./lib/scratch.js";

test.after.always(removeScratch);

const ALL = ["list", "--state", "all", "--json", "number,title,state,dueOn,description"];

/** Cases that only read: they share one fixture repo. */
const READS: Case[] = [
  { name: "list_human", args: ["list"] },
  { name: "list_all_human", args: ["list", "--state", "all"] },
  { name: "list_json", args: ["list", "--json"] },
  { name: "list_all_json", args: ["list", "-s", "all", "--json"] },
  { name: "list_closed", args: ["list", "--state", "closed", "--json", "number,title,closed"] },
  { name: "list_counts", args: ["list", "-s", "all", "--json", "title,openIssues,closedIssues"] },
  { name: "list_limit_1", args: ["list", "-L", "1", "--json", "number"] },
  { name: "list_jq_due", args: ["list", "--jq", ".[] | select(.dueOn != null) | .title"] },
  { name: "list_bad_state", args: ["list", "-s", "merged"], code: 2 },
  { name: "list_bad_field", args: ["list", "--json", "due"], code: 2 },
];

/** Cases that write: each gets a fresh copy of the fixture. */
const WRITES: Case[] = [
  { name: "create_json", args: ["create", "v3", "--due", "2020-06-30", "-d", "Third: the rest", "--json"], then: ALL },
  { name: "create_human", args: ["create", "v2.1"], then: ALL },
  { name: "create_full_timestamp", args: ["create", "v4", "--due", "2020-07-01T12:00:00Z", "--json", "dueOn"] },
  { name: "create_exists", args: ["create", "V1"], code: 1, then: ALL },
  { name: "create_bad_due", args: ["create", "v3", "--due", "2020-02-30"], code: 2, then: ALL },
  { name: "create_bad_due_word", args: ["create", "v3", "--due", "tomorrow"], code: 2 },
  { name: "create_two_lines", args: ["create", "v3\nv4"], code: 2 },
  { name: "create_no_title", args: ["create"], code: 2 },
  { name: "edit_title_due", args: ["edit", "v2", "--title", "v2.0", "--due", "2020-09-01", "--json"], then: ALL },
  { name: "edit_by_number", args: ["edit", "#2", "-d", "The first release", "--json", "number,title,description"] },
  { name: "edit_clear_due", args: ["edit", "v1", "--due", "", "-d", "", "--json", "title,dueOn,description"] },
  { name: "edit_title_taken", args: ["edit", "v2", "-t", "v1"], code: 1, then: ALL },
  { name: "edit_nothing", args: ["edit", "v1"], code: 2 },
  { name: "edit_missing", args: ["edit", "v9", "-d", "x"], code: 1 },
  { name: "close_v1", args: ["close", "v1"], then: ALL },
  { name: "close_json", args: ["close", "3", "--json"] },
  { name: "close_already", args: ["close", "v0.9", "--json", "number,state"] },
  { name: "reopen_v0.9", args: ["reopen", "v0.9", "--json", "number,state,closed"], then: ALL },
  { name: "reopen_already", args: ["reopen", "v1"] },
  { name: "close_missing", args: ["close", "v9"], code: 1 },
];

const since = formatTimestamp();
let shared = "";

test.before(async () => {
  shared = await kanbanRepo();
});

for (const c of READS) {
  test(`forge-milestone ${c.args.join(" ")} matches golden ${c.name}`, (t) =>
    checkCase(t, "forge-milestone", "milestone", c, shared, KANBAN_IDS, since));
}

for (const c of WRITES) {
  test(`forge-milestone ${c.args.join(" ").replace(/\n/g, "\\n")} matches golden ${c.name}`, async (t) => {
    await checkCase(t, "forge-milestone", "milestone", c, await kanbanRepo(), KANBAN_IDS, since);
  });
}
