import test from "ava";
import { checkPatchPaths, patchPaths, refusal } from "./_patch_paths.js";

const diff = (from: string, to: string, body = "@@ -1 +1 @@\n-a\n+b\n"): string =>
  `diff --git ${from} ${to}\nindex 1..2 100644\n--- ${from}\n+++ ${to}\n${body}`;

test("patchPaths() reads diff --git, ---, +++ and rename/copy lines", (t) => {
  const rename = "diff --git a/old b/new\nsimilarity index 90%\nrename from old\nrename to new\n";
  const text = `${diff("a/x.txt", "b/x.txt")}${rename}diff --git a/c b/d\ncopy from c\ncopy to d\n`;
  t.deepEqual(patchPaths(text), [
    "a/x.txt",
    "b/x.txt",
    "a/x.txt",
    "b/x.txt",
    "a/old",
    "b/new",
    "old",
    "new",
    "a/c",
    "b/d",
    "c",
    "d",
  ]);
});

test("patchPaths() skips hunk bodies: a removed line '-- x' is not a header", (t) => {
  const text = diff("a/x", "b/x", "@@ -1,2 +1,1 @@\n--- ../../etc/passwd\n ok\n");
  t.deepEqual(patchPaths(text), ["a/x", "b/x", "a/x", "b/x"]);
  t.notThrows(() => checkPatchPaths(text));
});

test("patchPaths() reads a traditional diff without a diff --git line (git applies those)", (t) => {
  t.deepEqual(patchPaths("--- a/../evil\t2020-01-01\n+++ b/../evil\n@@ -0,0 +1 @@\n+x\n"), ["a/../evil", "b/../evil"]);
});

test("patchPaths() unquotes git's C-quoted names and ignores /dev/null", (t) => {
  const text =
    'diff --git "a/sp ace\\303\\251" "b/sp ace\\303\\251"\nnew file mode 100644\n' +
    '--- /dev/null\n+++ "b/sp ace\\303\\251"\n@@ -0,0 +1 @@\n+x\n';
  t.deepEqual(patchPaths(text), ["a/sp aceé", "b/sp aceé", "b/sp aceé"]);
});

const REFUSED: Array<[string, string]> = [
  ["a/../x", "a '..' component"],
  ["../x", "a '..' component"],
  ["a/b/../../../x", "a '..' component"],
  ["/etc/passwd", "an absolute path"],
  ["a//etc/passwd", "an absolute path"],
  ["a/.git/hooks/pre-commit", "a .git component"],
  ["b/.GIT/config", "a .git component"],
  ["b/sub/.Git/hooks/x", "a .git component"],
  ["b/.git./hooks/x", "a .git component"],
  ["b/x\\..\\..\\y", "a '..' component"],
  ["C:\\x", "an absolute path"],
];
for (const [path, why] of REFUSED) {
  test(`refusal() refuses '${path}': ${why}`, (t) => {
    t.is(refusal(path, true), why);
  });
}

const ACCEPTED = ["a/src/x.ts", "b/.github/workflows/ci.yml", "a/.gitignore", "a/docs/.gitkeep", "a/x..y", "b/git/x"];
for (const path of ACCEPTED) {
  test(`refusal() accepts '${path}'`, (t) => {
    t.is(refusal(path, true), null);
  });
}

test("checkPatchPaths() throws one line naming the path, exit 1, E_UNSAFE_PATCH", (t) => {
  const e = t.throws(() => checkPatchPaths(diff("a/.git/hooks/pre-commit", "b/.git/hooks/pre-commit")));
  t.regex(
    e!.message,
    /^refused: the patch names 'a\/\.git\/hooks\/pre-commit' \(a \.git component\); nothing was applied$/
  );
  t.is((e as unknown as { code: string }).code, "E_UNSAFE_PATCH");
  t.is((e as unknown as { exitCode: number }).exitCode, 1);
});

test("checkPatchPaths() refuses a rename whose target climbs out", (t) => {
  const text = "diff --git a/x b/x\nsimilarity index 100%\nrename from x\nrename to ../../x\n";
  t.throws(() => checkPatchPaths(text), { message: /'\.\.\/\.\.\/x'/ });
});
