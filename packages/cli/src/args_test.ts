import test from "ava";
import { bindPositionals, parseArgv, type FlagsDef } from "./args.js";

const defs: FlagsDef = {
  ref: { type: "positional", required: true },
  title: { type: "string", alias: "t" },
  label: { type: "string", alias: "l", multiple: true },
  state: { type: "enum", alias: "s", options: ["open", "closed"] },
  draft: { type: "boolean", alias: "d" },
  yes: { type: "boolean", alias: "y" },
  json: {
    type: "string",
    optionalValue: true,
    acceptsValue: (v) => v.split(",").every((f) => ["title", "number"].includes(f)),
  },
};

const ok: Array<[string, string[], Record<string, unknown>]> = [
  ["a string flag and a positional", ["-t", "x", "12"], { _: ["12"], title: "x" }],
  ["--flag=value", ["--title=a=b", "1"], { _: ["1"], title: "a=b" }],
  ["-tvalue", ["-tx", "1"], { _: ["1"], title: "x" }],
  [
    "repeated and comma-separated lists",
    ["-l", "bug,help wanted", "--label", "ui", "1"],
    { _: ["1"], label: ["bug", "help wanted", "ui"] },
  ],
  ["an enum value", ["-s", "closed", "1"], { _: ["1"], state: "closed" }],
  ["a boolean", ["-d", "1"], { _: ["1"], draft: true }],
  ["--json alone before a positional", ["--json", "12"], { _: ["12"], json: "" }],
  ["--json with a field list", ["--json", "title,number", "12"], { _: ["12"], json: "title,number" }],
  ["- as a positional", ["-", "--json"], { _: ["-"], json: "" }],
  ["-- ends flags", ["--", "--title"], { _: ["--title"] }],
  ["- as a flag value", ["-t", "-", "1"], { _: ["1"], title: "-" }],
  // pflag's shorthand bundles: booleans, then at most one flag that takes the rest or the next token.
  ["bundled booleans", ["-dy", "1"], { _: ["1"], draft: true, yes: true }],
  ["a bundle ending in a valued flag", ["-dtx", "1"], { _: ["1"], draft: true, title: "x" }],
  ["a bundle whose valued flag takes the next token", ["-dl", "bug", "1"], { _: ["1"], draft: true, label: ["bug"] }],
];
for (const [name, argv, expected] of ok) {
  test(`parseArgv() accepts ${name}`, (t) => {
    t.deepEqual({ ...parseArgv(argv, defs) }, expected);
  });
}

const bad: Array<[string, string[], RegExp]> = [
  ["an unknown long flag", ["--bogus", "1"], /^unknown flag '--bogus'$/],
  ["an unknown short flag", ["-z", "1"], /^unknown flag '-z'$/],
  ["a string flag without a value", ["--title"], /^flag '--title' needs a value$/],
  ["a string flag followed by a flag", ["--title", "--json"], /^flag '--title' needs a value$/],
  ["a bad enum value", ["-s", "merged"], /^invalid value for '-s': 'merged' \(one of open\|closed\)$/],
  ["a value on a boolean", ["--draft=yes"], /^flag '--draft' takes no value$/],
  ["an unknown letter in a bundle", ["-dz", "1"], /^unknown flag '-z' in '-dz'$/],
  ["a string flag given twice", ["-t", "a", "-t", "b"], /given twice/],
];
for (const [name, argv, msg] of bad) {
  test(`parseArgv() rejects ${name} with a usage error`, (t) => {
    const err = t.throws(() => parseArgv(argv, defs), { message: msg });
    t.is((err as unknown as { exitCode: number }).exitCode, 2);
  });
}

test("parseArgv() notes -h anywhere before --", (t) => {
  t.true(parseArgv(["1", "-h"], defs).help);
  t.is(parseArgv(["--", "-h"], defs).help, undefined);
});

test("bindPositionals() rejects a missing and an extra positional", (t) => {
  t.throws(() => bindPositionals(parseArgv([], defs), defs), { message: "missing <ref>" });
  t.throws(() => bindPositionals(parseArgv(["1", "2"], defs), defs), { message: "unexpected argument '2'" });
  const p = parseArgv(["7"], defs);
  bindPositionals(p, defs);
  t.is(p.ref, "7");
});

test("bindPositionals() rejects a missing required flag", (t) => {
  const d: FlagsDef = { title: { type: "string", required: true } };
  t.throws(() => bindPositionals(parseArgv([], d), d), { message: "missing --title" });
});

test("parseArgv() checks each item of a repeatable enum flag", (t) => {
  const d: FlagsDef = { status: { type: "enum", alias: "s", options: ["todo", "doing", "done"], multiple: true } };
  t.deepEqual(
    { ...parseArgv(["-s", "todo,doing", "--status", "done"], d) },
    { _: [], status: ["todo", "doing", "done"] }
  );
  t.throws(() => parseArgv(["-s", "todo,nope"], d), {
    message: "invalid value for '-s': 'nope' (one of todo|doing|done)",
  });
});

test("bindPositionals(): a last positional marked multiple takes every remaining argument (gh's FILE…)", (t) => {
  const rest: FlagsDef = {
    tag: { type: "positional", required: true },
    file: { type: "positional", multiple: true },
  };
  const p = parseArgv(["v1", "a.zip", "b.zip"], rest);
  bindPositionals(p, rest);
  t.deepEqual([p.tag, p.file], ["v1", ["a.zip", "b.zip"]]);
  const none = parseArgv(["v1"], rest);
  bindPositionals(none, rest);
  t.deepEqual(none.file, []);
  // Only the last one: a middle positional marked multiple does not take the rest.
  const mid: FlagsDef = { a: { type: "positional", multiple: true }, b: { type: "positional" } };
  t.throws(() => bindPositionals(parseArgv(["1", "2", "3"], mid), mid), { message: "unexpected argument '3'" });
});
