import test from "ava";
import { closingNumbers } from "./_closes.js";

const cases: Array<[string, number[]]> = [
  ["Fixes #12", [12]],
  ["fixes #12 and closes #3; see #4", [12, 3]],
  ["CLOSE #1\nclosed #2\nfix #3\nfixed #4\nresolve #5\nresolves #6\nResolved #7", [1, 2, 3, 4, 5, 6, 7]],
  ["Resolves: #8", [8]],
  ["Fixes #1, fixes #1 again", [1]],
  ["Fixes #1 and #2", [1]],
  ["hotfix #3, prefixes #4, unfixed #5", []],
  ["Fixes#6", []],
  ["Fixes #0 and fixes #07", []],
  ["Fixes owner/repo#9", []],
  ["Fixes #12abc", []],
  ["(fixes #13)", [13]],
  ["", []],
];

for (const [body, want] of cases) {
  test(`closingNumbers() of ${JSON.stringify(body)} is [${want.join(", ")}]`, (t) => {
    t.deepEqual(closingNumbers(body), want);
  });
}
