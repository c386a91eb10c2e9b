import test from "ava";
import { PassThrough } from "node:stream";
import { ForgeError } from "@forge/core";
import { defineCommand, defineNoun } from "./define.js";
import type { Io } from "./io.js";
import { main, mainCommand } from "./main.js";

function fakeIo(): Io & { out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let o = "";
  let e = "";
  stdout.on("data", (d: Buffer) => (o += d.toString()));
  stderr.on("data", (d: Buffer) => (e += d.toString()));
  return { stdout, stderr, stdin: new PassThrough(), env: {}, cwd: "/", out: () => o, err: () => e };
}

const root = defineNoun({
  meta: { name: "forge-x", version: "9.9.9", description: "things" },
  subCommands: {
    go: async () =>
      defineCommand({
        meta: { name: "go", description: "Go somewhere" },
        args: { where: { type: "positional", required: true }, fast: { type: "boolean", alias: "f" } },
        run: ({ args, data }) => {
          if (args.where === "fail") throw new ForgeError('cannot go to "fail": no road', "E_X", 1);
          if (args.where === "crash") throw new Error("boom\nsecond line");
          data.io.stdout.write(`went ${args.where as string}${args.fast ? " fast" : ""}\n`);
          return 0;
        },
      }),
  },
});

const cases: Array<[string, string[], number, string, string]> = [
  ["runs a verb", ["go", "home", "-f"], 0, "went home fast\n", ""],
  [
    "prints root help on stdout",
    [],
    0,
    "forge-x 9.9.9 - things\nusage: forge-x <command> [flags]\ncommands: go\nhelp: forge-x <command> -h\n",
    "",
  ],
  ["prints verb help", ["go", "-h"], 0, "usage: forge-x go <where> [flags]\nGo somewhere\n-f,--fast\n", ""],
  ["prints the version", ["--version"], 0, "forge-x 9.9.9\n", ""],
  [
    "exits 2 on an unknown flag",
    ["go", "home", "--bogus"],
    2,
    "",
    "forge-x go: unknown flag '--bogus' (see 'forge-x go -h')\n",
  ],
  ["exits 2 on an unknown verb", ["nope"], 2, "", "forge-x: unknown command 'nope' (see 'forge-x -h')\n"],
  ["exits 2 on a missing positional", ["go"], 2, "", "forge-x go: missing <where> (see 'forge-x go -h')\n"],
  ["exits 1 with one line on a runtime error", ["go", "fail"], 1, "", 'forge-x go: cannot go to "fail": no road\n'],
  ["squashes an unexpected error to one line", ["go", "crash"], 1, "", "forge-x go: boom second line\n"],
];
for (const [name, argv, code, out, err] of cases) {
  test(`main() ${name}`, async (t) => {
    const io = fakeIo();
    t.is(await main(root, argv, io), code);
    t.is(io.out(), out);
    t.is(io.err(), err);
  });
}

test(
  "mainCommand() runs a verbless executable: version, " + "help, strict flags and positionals, the run's exit code",
  async (t) => {
    const filter = defineCommand({
      meta: { name: "forge-f", version: "1.2.3", description: "Filter lines" },
      args: { input: { type: "positional", valueHint: "-" }, n: { type: "string", description: "how many" } },
      run: ({ args, data }) => {
        data.io.stdout.write(`n=${String(args.n)} input=${String(args.input)}\n`);
        return args.n === "0" ? 1 : 0;
      },
    });
    const run = async (argv: string[]) => {
      const io = fakeIo();
      const code = await mainCommand(filter, argv, io);
      return { code, out: io.out(), err: io.err() };
    };
    t.deepEqual(await run(["-v"]), { code: 0, out: "forge-f 1.2.3\n", err: "" });
    const h = await run(["-h"]);
    t.is(h.code, 0);
    t.regex(h.out, /^usage: forge-f \[<->\] \[flags\]\nFilter lines\n/);
    t.deepEqual(await run(["-", "--n", "3"]), { code: 0, out: "n=3 input=-\n", err: "" });
    t.deepEqual(await run(["--n", "0"]), { code: 1, out: "n=0 input=undefined\n", err: "" });
    const bad = await run(["--bogus"]);
    t.is(bad.code, 2);
    t.is(bad.err, "forge-f: unknown flag '--bogus' (see 'forge-f -h')\n");
  }
);
