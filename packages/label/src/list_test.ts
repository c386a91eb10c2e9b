import test from "ava";
import { parseArgv } from "@forge/cli";
import list, { parseListOptions } from "./list.js";

const parse = (argv: string[]) => parseListOptions(parseArgv(argv, list.args));

test("parseListOptions() defaults to gh's: created order, ascending, limit 30", (t) => {
  t.deepEqual(parse([]), { search: undefined, sort: "created", order: "asc", limit: 30 });
});

test("parseListOptions() reads --sort, --order and -L", (t) => {
  t.deepEqual(parse(["--sort", "name", "--order", "desc", "-L", "5"]), {
    search: undefined,
    sort: "name",
    order: "desc",
    limit: 5,
  });
});

test("parseListOptions() refuses --sort or --order with --search, as gh does", (t) => {
  t.throws(() => parse(["-S", "bug", "--order", "asc"]), { message: "cannot specify --order or --sort with --search" });
  t.throws(() => parse(["-S", "bug", "--sort", "name"]), { message: "cannot specify --order or --sort with --search" });
});

test("parseListOptions() refuses a bad limit", (t) => {
  t.throws(() => parse(["-L", "0"]), { message: /invalid limit/ });
});
