/**
 * Golden tests for every forge-label verb against the kanban fixture's
 * labels.md (test/lib/kanban_fixture.ts). Goldens live in test/golden/label/;
 * the `.then.jsonl` files show labels.md's effect through `label list`.
 */
import test from "ava";
import { formatTimestamp } from "@forge/core";
import { checkCase, type Case } from "./lib/golden_cases.js";
import { KANBAN_IDS, kanbanRepo } from "./lib/kanban_fixture.js";
import { removeScratch } from "./lib/scratch.js";

test.after.always(removeScratch);

const ALL = ["list", "--json", "name,color,description"];

/** Cases that only read: they share one fixture repo. */
const READS: Case[] = [
  // list: gh's default order is creation (the file's order), ascending
  { name: "list_human", args: ["list"] },
  { name: "list_json", args: ["list", "--json"] },
  { name: "list_sort_name", args: ["list", "--sort", "name", "--json", "name"] },
  { name: "list_sort_name_desc", args: ["list", "--sort", "name", "--order", "desc", "--json", "name"] },
  { name: "list_order_desc", args: ["list", "--order", "desc", "--json", "name"] },
  // --search: names and descriptions, case-insensitive, best match first
  { name: "list_search_good", args: ["list", "--search", "GOOD", "--json", "name,description"] },
  { name: "list_search_doc", args: ["list", "-S", "doc", "--json", "name"] },
  // names that contain "i" in file order, then descriptions that do
  { name: "list_search_rank", args: ["list", "-S", "i", "--json", "name"] },
  { name: "list_limit_2", args: ["list", "-L", "2", "--json", "name"] },
  { name: "list_jq_names", args: ["list", "--jq", ".[].name"] },
  { name: "list_search_none", args: ["list", "-S", "zzz", "--json"] },
  { name: "list_search_and_sort", args: ["list", "-S", "bug", "--sort", "name"], code: 2 },
  { name: "list_bad_sort", args: ["list", "--sort", "updated"], code: 2 },
  { name: "list_bad_field", args: ["list", "--json", "name,id"], code: 2 },
];

/** Cases that write: each gets a fresh copy of the fixture. */
const WRITES: Case[] = [
  { name: "create_json", args: ["create", "triage", "-c", "FBCA04", "-d", "Needs a look", "--json"], then: ALL },
  // without --color: gh's palette, picked from the name (stable)
  {
    name: "create_no_color",
    args: ["create", "wontfix"],
    then: ["list", "-S", "wontfix", "--json", "name,color,description"],
  },
  { name: "create_hash_color", args: ["create", "question", "--color", "#D876E3", "--json", "color"] },
  { name: "create_exists", args: ["create", "bug"], code: 1, then: ALL },
  { name: "create_exists_other_case", args: ["create", "BUG", "-c", "000000"], code: 1 },
  {
    name: "create_force",
    args: ["create", "Bug", "-f", "-c", "ee0701", "--json"],
    then: ["list", "-S", "bug", "--json", "name,color,description"],
  },
  { name: "create_bad_color", args: ["create", "x", "-c", "red"], code: 2, then: ALL },
  { name: "create_bad_color_short", args: ["create", "x", "-c", "#fff"], code: 2 },
  { name: "create_no_name", args: ["create"], code: 2 },
  { name: "edit_color_description", args: ["edit", "ui", "-c", "C5DEF5", "-d", "User interface", "--json"] },
  { name: "edit_rename", args: ["edit", "docs", "--name", "documentation"], then: ALL },
  { name: "edit_rename_case", args: ["edit", "Good first issue", "-n", "good first issue", "--json", "name"] },
  { name: "edit_rename_taken", args: ["edit", "docs", "-n", "Bug"], code: 1, then: ALL },
  { name: "edit_clear_description", args: ["edit", "bug", "-d", "", "--json"] },
  { name: "edit_by_other_case", args: ["edit", "HELP WANTED", "-c", "000000", "--json", "name,color"] },
  { name: "edit_nothing", args: ["edit", "bug"], code: 2 },
  { name: "edit_missing", args: ["edit", "nope", "-c", "000000"], code: 1 },
  { name: "delete_bug", args: ["delete", "bug", "--yes"], then: ALL },
  { name: "delete_no_yes", args: ["delete", "bug"], code: 2, then: ALL },
  { name: "delete_missing", args: ["delete", "nope", "--yes"], code: 1 },
];

const since = formatTimestamp();
let shared = "";

test.before(async () => {
  shared = await kanbanRepo();
});

for (const c of READS) {
  test(`forge-label ${c.args.join(" ")} matches golden ${c.name}`, (t) =>
    checkCase(t, "forge-label", "label", c, shared, KANBAN_IDS, since));
}

for (const c of WRITES) {
  test(`forge-label ${c.args.join(" ")} matches golden ${c.name}`, async (t) => {
    await checkCase(t, "forge-label", "label", c, await kanbanRepo(), KANBAN_IDS, since);
  });
}
