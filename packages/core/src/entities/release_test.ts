import test from "ava";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { releaseFile, storeAt } from "../store/store.js";
import {
  checkReleaseTag,
  compareReleases,
  isAssetName,
  isReleaseTag,
  listReleaseTags,
  loadRelease,
  releaseListJson,
  releaseToJson,
} from "./release.js";

const temps: string[] = [];
/** A new temp folder, removed when the file's tests are done. */
function temp(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  temps.push(d);
  return d;
}
test.after.always(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const FIXTURE = fileURLToPath(new URL("../../../../spec/fixtures/release.md", import.meta.url));

function tempStore() {
  const root = temp("forge-release-unit-");
  mkdirSync(join(root, ".forge", "releases"), { recursive: true });
  return storeAt(join(root, ".forge"));
}

for (const tag of ["v1", "v1.2.3", "1.0.0-rc.1", "v2+build.5", "release_2026", "V"]) {
  test(`isReleaseTag() accepts '${tag}'`, (t) => t.true(isReleaseTag(tag)));
}
for (const tag of [
  "",
  "-v1",
  ".v1",
  "v1/rc",
  "../x",
  "v1..2",
  "v1.",
  "v1.lock",
  "v 1",
  "v1\n",
  "v1@{0}",
  "a\\b",
  "x".repeat(101),
  "_v1",
]) {
  test(`isReleaseTag() refuses ${JSON.stringify(tag.slice(0, 20))}`, (t) => {
    t.false(isReleaseTag(tag));
    const err = t.throws(() => checkReleaseTag(tag));
    t.is((err as { exitCode?: number }).exitCode, 2);
  });
}

for (const name of ["a", "linux/forge.tar.gz", "with space.zip", ".hidden", "a/b/c"]) {
  test(`isAssetName() accepts '${name}'`, (t) => t.true(isAssetName(name)));
}
for (const name of ["", "/etc/passwd", "../x", "a/../b", "a/./b", "a//b", "a/", "a\\b", "a\nb", "a\u0000b", "."]) {
  test(`isAssetName() refuses ${JSON.stringify(name)}`, (t) => t.false(isAssetName(name)));
}

test("releaseToJson() maps the spec fixture to gh's fields, digest as sha256:<hex>", async (t) => {
  const store = tempStore();
  writeFileSync(releaseFile(store, "v0.1.0"), readFileSync(FIXTURE));
  const r = releaseToJson(await loadRelease(store, "v0.1.0"));
  t.deepEqual(r, {
    assets: [
      {
        digest: "sha256:caf90169eefa5f807d577486b9f795ab86ae2983c5c20806cff959117e90af18",
        name: "forge-linux-x64.tar.gz",
        size: 1843200,
      },
      {
        digest: "sha256:26ce1a1580f693873b6268fef54c5f0d0607f2896cad02ce2894c0c899a11575",
        name: "forge-darwin-arm64.tar.gz",
        size: 1795072,
      },
    ],
    author: { login: "alice" },
    body: "## What's new\n\n- Issues, PRs and CI in `.forge/`\n- `forge-issue list --json` streams under back-pressure",
    createdAt: "2026-02-01T12:00:00Z",
    isDraft: false,
    isPrerelease: false,
    name: "v0.1.0: first cut",
    publishedAt: "2026-02-01T12:00:00Z",
    tagName: "v0.1.0",
    targetCommitish: "264b04c83c8197c1a52c014b8d35decac6d426fa",
  });
  t.deepEqual(Object.keys(releaseListJson(r, true)), [
    "createdAt",
    "isDraft",
    "isLatest",
    "isPrerelease",
    "name",
    "publishedAt",
    "tagName",
  ]);
});

test("loadRelease() refuses a file whose tagName is not its file name", async (t) => {
  const store = tempStore();
  writeFileSync(releaseFile(store, "v9"), readFileSync(FIXTURE));
  await t.throwsAsync(loadRelease(store, "v9"), {
    message: ".forge/releases/v9.md: field 'tagName': does not match its file name",
  });
});

test("loadRelease() refuses an asset name that would leave releases/out/<tag>/", async (t) => {
  const store = tempStore();
  writeFileSync(
    releaseFile(store, "v0.1.0"),
    readFileSync(FIXTURE, "utf8").replace("name: forge-linux-x64.tar.gz", "name: ../../../etc/passwd")
  );
  await t.throwsAsync(loadRelease(store, "v0.1.0"), { message: /field 'assets\[0\]\.name': not a safe relative path/ });
});

test(
  "listReleaseTags() lists releases/*.md only, sorted; " + "build/, out/, dot files and odd names are not releases",
  (t) => {
    const store = tempStore();
    const dir = join(store.dir, "releases");
    for (const f of ["v2.md", "v10.md", "v1.md", ".v3.md.123.tmp", ".x.md", "notes.txt", "bad name.md"])
      writeFileSync(join(dir, f), "");
    mkdirSync(join(dir, "build"));
    mkdirSync(join(dir, "out"));
    t.deepEqual(listReleaseTags(store), ["v1", "v10", "v2"]);
  }
);

test("listReleaseTags() is empty without a releases folder", (t) => {
  const root = temp("forge-release-unit-");
  mkdirSync(join(root, ".forge"));
  t.deepEqual(listReleaseTags(storeAt(join(root, ".forge"))), []);
});

test("compareReleases() puts the newest first, then the greater tag", (t) => {
  const rs = [
    { createdAt: "2020-01-01T00:00:00Z", tagName: "a" },
    { createdAt: "2021-01-01T00:00:00Z", tagName: "b" },
    { createdAt: "2020-01-01T00:00:00Z", tagName: "c" },
  ];
  t.deepEqual(
    rs.sort(compareReleases).map((r) => r.tagName),
    ["b", "c", "a"]
  );
});

test("listReleaseTags() and loadRelease() refuse a releases folder symlinked out of the store", async (t) => {
  const root = temp("forge-release-unit-");
  mkdirSync(join(root, ".forge"));
  mkdirSync(join(root, "elsewhere"));
  writeFileSync(join(root, "elsewhere", "v0.1.0.md"), readFileSync(FIXTURE));
  symlinkSync(join(root, "elsewhere"), join(root, ".forge", "releases"));
  const store = storeAt(join(root, ".forge"));
  t.throws(() => listReleaseTags(store), { message: ".forge/releases: symlink points outside .forge/ (refused)" });
  await t.throwsAsync(loadRelease(store, "v0.1.0"), {
    message: ".forge/releases: symlink points outside .forge/ (refused)",
  });
});

test("loadRelease() says which release is missing, with or without a releases folder", async (t) => {
  const root = temp("forge-release-unit-");
  mkdirSync(join(root, ".forge"));
  const store = storeAt(join(root, ".forge"));
  await t.throwsAsync(loadRelease(store, "v1"), { message: "no release 'v1'" });
  mkdirSync(join(store.dir, "releases"));
  await t.throwsAsync(loadRelease(store, "v1"), { message: /no such file/ });
});
