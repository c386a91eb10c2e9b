import test from "ava";
import { parseArgv } from "@forge/cli";
import list, { parseListOptions } from "./list.js";

const parse = (argv: string[]) => parseListOptions(parseArgv(argv, list.args));

test("parseListOptions() defaults to open issues, limit 30", (t) => {
  t.deepEqual(parse([]), {
    state: "open",
    labels: [],
    assignee: undefined,
    author: undefined,
    milestone: undefined,
    search: undefined,
    limit: 30,
    ready: false,
    links: false,
  });
});

test("parseListOptions() reads gh's flags and letters", (t) => {
  t.deepEqual(parse(["-s", "all", "-l", "bug,ui", "-a", "@me", "-A", "bob", "-m", "v1", "-S", "crash", "-L", "5"]), {
    state: "all",
    labels: ["bug", "ui"],
    assignee: "@me",
    author: "bob",
    milestone: "v1",
    search: "crash",
    limit: 5,
    ready: false,
    links: false,
  });
});

test("parseListOptions() reads --ready", (t) => {
  t.true(parse(["--ready"]).ready);
});

for (const bad of ["0", "-1", "x", "1.5"]) {
  test(`parseListOptions() rejects --limit ${bad}`, (t) => {
    t.throws(() => parse([`--limit=${bad}`]), { message: /invalid limit/ });
  });
}
