import test from "ava";
import { checkName, parseCheckArgv } from "./argv.js";

const cases: Array<[string, string[]]> = [
  ["node check.js", ["node", "check.js"]],
  [`node -e "process.exit(1)"`, ["node", "-e", "process.exit(1)"]],
  [`sh -c 'echo $HOME; rm -rf /'`, ["sh", "-c", "echo $HOME; rm -rf /"]],
  [`a\\ b "c\\"d" ''`, ["a b", 'c"d', ""]],
  [`["pnpm","test","--","x y"]`, ["pnpm", "test", "--", "x y"]],
  ["  spaced   out  ", ["spaced", "out"]],
];
for (const [cmd, want] of cases) {
  test(`parseCheckArgv() splits ${JSON.stringify(cmd)} without expanding anything`, (t) => {
    t.deepEqual(parseCheckArgv(cmd), want);
  });
}

for (const bad of ["", "   ", `"unclosed`, "[]", `["a", 1]`, "[nope"]) {
  test(`parseCheckArgv() refuses ${JSON.stringify(bad)}`, (t) => {
    t.throws(() => parseCheckArgv(bad), { code: "E_USAGE" });
  });
}

test("checkName() joins argv by spaces", (t) => {
  t.is(checkName(["node", "check.js"]), "node check.js");
});
