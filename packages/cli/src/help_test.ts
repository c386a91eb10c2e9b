import test from "ava";
import { renderHelp, withDefault } from "./help.js";

test("withDefault() adds the declared default, keeps one the description gives, says off, none or required", (t) => {
  t.is(withDefault({ type: "string", description: "at most n", default: "30" }), "at most n (default: 30)");
  t.is(withDefault({ type: "string", description: "commit-ish (default HEAD)" }), "commit-ish (default HEAD)");
  t.is(withDefault({ type: "string", description: "max (30)" }), "max (default: 30)");
  t.is(withDefault({ type: "boolean", description: "land one commit (the default)" }), "land one commit (the default)");
  t.is(withDefault({ type: "boolean", description: "every step" }), "every step (default: off)");
  t.is(withDefault({ type: "string", description: "a label" }), "a label (default: none)");
  t.is(withDefault({ type: "string", description: "the folder", required: true }), "the folder (required)");
});

test("renderHelp() lists arguments, every flag with its description, reads, environment and examples", (t) => {
  const page = renderHelp({
    prog: "forge-x go",
    description: "Go somewhere",
    flags: {
      where: { type: "positional", required: true, valueHint: "where", description: "the place" },
      fast: { type: "boolean", alias: "f", description: "quickly" },
      n: { type: "string", valueHint: "n", default: "3", description: "times" },
    },
    help: {
      reads: [["x.env", "speed=N"]],
      env: [["X_SPEED", "the default speed"]],
      examples: ["forge-x go home", "forge-x go -f work"],
    },
  });
  t.is(
    page,
    [
      "usage: forge-x go <where> [flags]",
      "",
      "Go somewhere",
      "",
      "arguments:",
      "  <where>                 the place",
      "",
      "flags:",
      "  -f, --fast              quickly (default: off)",
      "  --n <n>                 times (default: 3)",
      "  -h, --help              -h: the short usage; --help: this page",
      "",
      "reads:",
      "  x.env                   speed=N",
      "",
      "environment:",
      "  X_SPEED                 the default speed",
      "  FORGE_DIR               the store (default: the .forge/ found walking up from here)",
      "  NO_COLOR                no colour, even on a terminal",
      "  FORGE_DEBUG             a stack trace after an unexpected error",
      "",
      "examples:",
      "  forge-x go home",
      "  forge-x go -f work",
      "",
      "exit: 0 ok, 1 runtime error, 2 usage error; errors are one line on stderr",
      "",
    ].join("\n")
  );
});
