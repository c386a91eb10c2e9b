import test from "ava";
import { parseRepoName } from "./repo.js";

test("parseRepoName() reads gh's forms", (t) => {
  t.deepEqual(parseRepoName("cli/cli"), { host: "github.com", owner: "cli", name: "cli" });
  t.deepEqual(parseRepoName("GHE.io/o/r"), { host: "ghe.io", owner: "o", name: "r" });
  t.deepEqual(parseRepoName("https://www.github.com/o/r.git"), { host: "github.com", owner: "o", name: "r" });
  t.deepEqual(parseRepoName("git@github.com:o/r.git"), { host: "github.com", owner: "o", name: "r" });
  t.deepEqual(parseRepoName("ssh://git@example.com:22/o/r"), { host: "example.com", owner: "o", name: "r" });
});

test("parseRepoName() refuses what gh refuses", (t) => {
  for (const bad of ["OWNER", "a/b/c/d", "a/", "", "/tmp/x/y/z/w"]) t.is(parseRepoName(bad), null, bad);
});
