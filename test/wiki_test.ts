/**
 * forge-wiki end to end: goldens for every verb (test/golden/wiki/), pages
 * printed byte for byte, and hostile page names and symlinks: each a
 * one-line error with nothing read or written outside `.forge/wiki/`.
 */
import test, { type ExecutionContext } from "ava";
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { golden } from "./lib/golden.js";
import { assertOneLineError, snapshot } from "./lib/hostile.js";
import { BIN, baseEnv, run, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

/** The golden wiki: nested folders, a page without an H1, one with frontmatter, a fenced `#`. */
const PAGES: Record<string, string> = {
  "index.md": "Welcome.\n\nSee [setup](docs/setup.md).\n",
  "docs/setup.md": "---\ntags: [howto]\n---\nSome intro.\n\n# Setting up forge\n\nRun `forge init`.\n",
  "docs/build-log.md": "```sh\n# not a title\n```\n# Build log ##\n",
  "docs/api/v1.md": "# API v1\n",
  "Zebra.md": "# Capital first\n",
};

function writePages(repo: string): void {
  for (const [rel, text] of Object.entries(PAGES)) {
    const abs = join(repo, ".forge", "wiki", rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
}

let shared: Promise<string> | undefined;
function wikiRepo(): Promise<string> {
  return (shared ??= (async () => {
    const dir = scratch(tempRepo("forge-wiki-"));
    writePages(dir);
    return dir;
  })());
}

interface Case {
  name: string;
  args: string[];
  code?: number;
  input?: string;
  /** Write cases get their own repo. */
  writes?: boolean;
  then?: string[];
}

const CASES: Case[] = [
  { name: "list_human", args: ["list"] },
  { name: "list_json", args: ["list", "--json"] },
  { name: "list_json_path", args: ["list", "--json", "path"] },
  { name: "list_jq_titles", args: ["list", "--jq", ".[].title"] },
  { name: "list_bad_field", args: ["list", "--json", "nope"], code: 2 },
  { name: "get_setup", args: ["get", "docs/setup"] },
  { name: "get_setup_md", args: ["get", "docs/setup.md"] },
  { name: "get_missing", args: ["get", "docs/nope"], code: 1 },
  { name: "get_dotdot", args: ["get", "../issues/x"], code: 2 },
  { name: "get_absolute", args: ["get", "/etc/passwd"], code: 2 },
  { name: "get_no_page", args: ["get"], code: 2 },
  {
    name: "put_json",
    args: ["put", "guides/new-page", "--json"],
    input: "# A new page\n\nText.\n",
    writes: true,
    then: ["list", "--json", "path,title"],
  },
  { name: "put_human", args: ["put", "index"], input: "# Home\n", writes: true, then: ["get", "index"] },
  { name: "put_empty", args: ["put", "x"], input: "", writes: true, code: 2 },
  { name: "put_dotdot", args: ["put", "../../evil"], input: "# evil\n", writes: true, code: 2 },
  { name: "put_backslash", args: ["put", "a\\b"], input: "# evil\n", writes: true, code: 2 },
];

async function check(t: ExecutionContext, c: Case): Promise<void> {
  const cwd = c.writes ? scratch(tempRepo("forge-wiki-")) : await wikiRepo();
  if (c.writes) writePages(cwd);
  const before = snapshot(cwd);
  const r = await run("forge-wiki", c.args, { cwd, input: c.input });
  t.is(r.code, c.code ?? 0, r.stderr);
  const ext = c.args.includes("--json") && !c.args.includes("--jq") ? "jsonl" : "txt";
  golden(t, `wiki/${c.name}.${ext}`, r.stdout, true);
  golden(t, `wiki/${c.name}.stderr`, r.stderr, true);
  if (r.code !== 0) {
    t.is(r.stderr.split("\n").length, 2, "an error is one stderr line");
    t.deepEqual(snapshot(cwd), before, "nothing written on an error");
  }
  if (c.then) {
    const after = await run("forge-wiki", c.then, { cwd });
    t.is(after.code, 0, after.stderr);
    golden(t, `wiki/${c.name}.then.txt`, after.stdout);
  }
}

for (const c of CASES) {
  test(`forge-wiki ${c.args.join(" ")} matches golden ${c.name}`, (t) => check(t, c));
}

test("forge-wiki list prints nothing and exits 0 without a wiki", async (t) => {
  const cwd = scratch(tempRepo("forge-wiki-"));
  for (const args of [["list"], ["list", "--json"]]) {
    const r = await run("forge-wiki", args, { cwd });
    t.is(r.code, 0, r.stderr);
    t.is(r.stdout + r.stderr, "");
  }
});

test("forge-wiki get prints a page's bytes exactly, even when they are not UTF-8", async (t) => {
  const cwd = scratch(tempRepo("forge-wiki-"));
  const bytes = Buffer.from([0x23, 0x20, 0xc3, 0xa9, 0x0a, 0xff, 0xfe, 0x00, 0x0d, 0x0a]);
  mkdirSync(join(cwd, ".forge", "wiki"));
  writeFileSync(join(cwd, ".forge", "wiki", "raw.md"), bytes);
  const out = execFileSync(join(BIN, "forge-wiki"), ["get", "raw"], { cwd, env: baseEnv() as NodeJS.ProcessEnv });
  t.deepEqual(out, bytes);
});

test("forge-wiki put then get round-trips the text; the index follows the new H1", async (t) => {
  const cwd = scratch(tempRepo("forge-wiki-"));
  const text = "Intro line\n\n# Über & <tags> `code` $(not run)\n\nbody\n";
  t.is((await run("forge-wiki", ["put", "a/b/c"], { cwd, input: text })).code, 0);
  t.is((await run("forge-wiki", ["get", "a/b/c"], { cwd })).stdout, text);
  const l = await run("forge-wiki", ["list", "--json"], { cwd });
  t.is(
    l.stdout,
    JSON.stringify({ path: "a/b/c.md", size: Buffer.byteLength(text), title: "Über & <tags> `code` $(not run)" }) + "\n"
  );
  t.deepEqual(readdirSync(join(cwd, ".forge", "wiki", "a", "b")), ["c.md"], "no temp file left behind");
});

// --- hostile page names and symlinks ---

const HOSTILE_NAMES = [
  "..",
  "../x",
  "../../../../../../tmp/forge-wiki-evil",
  "a/../../b",
  "/tmp/forge-wiki-evil",
  "docs/./x",
  ".hidden",
  "-rf",
  "a\nb",
];

for (const name of HOSTILE_NAMES) {
  test(`forge-wiki put/get ${JSON.stringify(name)}: one-line usage error, nothing written anywhere`, async (t) => {
    const cwd = scratch(tempRepo("forge-wiki-"));
    writePages(cwd);
    const before = snapshot(cwd);
    const parent = readdirSync(dirname(cwd)).sort();
    // After `--`, so "-rf" reaches the page-name check instead of the flag parser (argv cannot carry a NUL:
    // unit-tested).
    const put = await run("forge-wiki", ["put", "--", name], { cwd, input: "# evil\n" });
    assertOneLineError(t, put, "forge-wiki put", ["invalid page name"], 2);
    const get = await run("forge-wiki", ["get", "--", name], { cwd });
    assertOneLineError(t, get, "forge-wiki get", ["invalid page name"], 2);
    t.deepEqual(snapshot(cwd), before);
    t.deepEqual(
      readdirSync(dirname(cwd))
        .sort()
        .filter((n) => !parent.includes(n) && n.includes("evil")),
      []
    );
    t.false(existsSync("/tmp/forge-wiki-evil.md"));
    t.false(existsSync("/tmp/forge-wiki-evil"));
  });
}

test(
  "forge-wiki refuses a wiki folder symlinked out of the " + "store: get, put and list, nothing read or written there",
  async (t) => {
    const cwd = scratch(tempRepo("forge-wiki-"));
    const outside = scratch(realpathSync(mkdtempSync(join(tmpdir(), "forge-wiki-outside-"))));
    writeFileSync(join(outside, "secret.md"), "# Secret title\nsecret body\n");
    mkdirSync(join(cwd, ".forge", "wiki"));
    symlinkSync(outside, join(cwd, ".forge", "wiki", "ext"));
    const get = await run("forge-wiki", ["get", "ext/secret"], { cwd });
    assertOneLineError(t, get, "forge-wiki get", [".forge/wiki/ext/secret.md", "outside .forge/wiki/"]);
    const put = await run("forge-wiki", ["put", "ext/new"], { cwd, input: "# x\n" });
    assertOneLineError(t, put, "forge-wiki put", [".forge/wiki/ext", "outside"]);
    const list = await run("forge-wiki", ["list", "--json"], { cwd });
    assertOneLineError(t, list, "forge-wiki list", [".forge/wiki/ext", "outside .forge/wiki/"]);
    for (const r of [get, put, list])
      t.false(`${r.stdout}${r.stderr}`.includes("Secret"), "the outside file's contents never show");
    t.deepEqual(readdirSync(outside), ["secret.md"]);
    t.is(readFileSync(join(outside, "secret.md"), "utf8"), "# Secret title\nsecret body\n");
  }
);

test(
  "forge-wiki refuses a page that is a symlink out of the " +
    "wiki (get and list), and will not write through it (put)",
  async (t) => {
    const cwd = scratch(tempRepo("forge-wiki-"));
    writeFileSync(join(cwd, "secret.md"), "# Secret\n");
    mkdirSync(join(cwd, ".forge", "wiki"));
    symlinkSync(join(cwd, "secret.md"), join(cwd, ".forge", "wiki", "leak.md"));
    assertOneLineError(t, await run("forge-wiki", ["get", "leak"], { cwd }), "forge-wiki get", [
      "symlink points outside .forge/wiki/",
    ]);
    assertOneLineError(t, await run("forge-wiki", ["put", "leak"], { cwd, input: "# overwrite\n" }), "forge-wiki put", [
      "is a symlink",
    ]);
    assertOneLineError(t, await run("forge-wiki", ["list"], { cwd }), "forge-wiki list", ["leak.md"]);
    t.is(readFileSync(join(cwd, "secret.md"), "utf8"), "# Secret\n");
  }
);

test("forge-wiki put refuses a page over 256 KiB and writes nothing", async (t) => {
  const cwd = scratch(tempRepo("forge-wiki-"));
  const r = await run("forge-wiki", ["put", "big"], { cwd, input: "# Big\n" + "x".repeat(256 * 1024) });
  assertOneLineError(t, r, "forge-wiki put", ["larger than 256 KiB"]);
  t.false(existsSync(join(cwd, ".forge", "wiki", "big.md")));
});

test("forge-wiki list --json | jq pipes the paths back into get", async (t) => {
  const cwd = await wikiRepo();
  const l = await run("forge-wiki", ["list", "--json", "path", "--jq", ".[].path"], { cwd });
  t.is(l.code, 0, l.stderr);
  const paths = l.stdout.trim().split("\n");
  t.deepEqual(paths, Object.keys(PAGES).sort());
  for (const p of paths) t.is((await run("forge-wiki", ["get", p], { cwd })).stdout, PAGES[p]);
});
