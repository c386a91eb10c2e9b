import test from "ava";
import { parseArgv } from "@forge/cli";
import type { TaskJson } from "@forge/core";
import list, { formatBoard, parseListOptions } from "./list.js";

const parse = (argv: string[]) => parseListOptions(parseArgv(argv, list.args));

test("parseListOptions() defaults to every column, limit 30 per column", (t) => {
  t.deepEqual(parse([]), { statuses: ["todo", "doing", "blocked", "done"], assignee: undefined, limit: 30 });
});

test("parseListOptions() keeps board order whatever order --status names the columns in", (t) => {
  t.deepEqual(parse(["-s", "done,todo", "--status", "blocked", "-a", "@me", "-L", "2"]), {
    statuses: ["todo", "blocked", "done"],
    assignee: "@me",
    limit: 2,
  });
});

test("parseListOptions() rejects a status that is not a column", (t) => {
  t.throws(() => parse(["--status", "todo,closed"]), { message: /invalid value for '--status': 'closed'/ });
});

for (const bad of ["0", "-1", "x", "1.5"]) {
  test(`parseListOptions() rejects --limit ${bad}`, (t) => {
    t.throws(() => parse([`--limit=${bad}`]), { message: /invalid limit/ });
  });
}

function task(number: number, status: TaskJson["status"], title: string): TaskJson {
  return {
    assignees: [],
    author: { login: "a" },
    body: "",
    closedAt: null,
    createdAt: "",
    id: "",
    isArchived: false,
    issue: null,
    number,
    status,
    title,
    updatedAt: "",
  };
}

test(
  "formatBoard() puts a counted heading over each asked " + "column, empty ones too, rows aligned across the board",
  (t) => {
    const recs = [task(1, "todo", "a"), task(12, "todo", "bb"), task(3, "done", "c")];
    t.is(
      formatBoard(recs, ["todo", "doing", "done"], false),
      "TODO (2)\n#1   a\n#12  bb\n\nDOING (0)\n\nDONE (1)\n#3   c\n"
    );
  }
);
