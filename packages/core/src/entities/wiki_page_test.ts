import test from "ava";
import { isWikiPagePath, wikiPagePath, wikiTitle } from "./wiki_page.js";

test("wikiTitle() skips a # line inside a fenced code block", (t) => {
  t.is(wikiTitle("```sh\n# not this\n```\n# Build log\n"), "Build log");
});

test("wikiTitle() returns the first H1", (t) => {
  t.is(wikiTitle("intro\n\n# First\n\n# Second\n"), "First");
});

test("wikiTitle() returns null for a page without an H1", (t) => {
  t.is(wikiTitle("## Only a subheading\n\ntext\n"), null);
  t.is(wikiTitle(""), null);
});

test("wikiTitle() ignores H2 and deeper, and #word without a space", (t) => {
  t.is(wikiTitle("## Two\n#hashtag\n# One\n"), "One");
});

test("wikiTitle() skips a leading frontmatter block (a YAML comment is not a title)", (t) => {
  t.is(wikiTitle("---\n# yaml comment\ntags: [a]\n---\n# Real title\n"), "Real title");
});

test("wikiTitle() handles tilde fences and longer closing fences", (t) => {
  t.is(wikiTitle("~~~\n# no\n~~~~\n# Yes\n"), "Yes");
});

test("wikiTitle() does not close a backtick fence with a tilde fence or a shorter one", (t) => {
  t.is(wikiTitle("````\n~~~\n```\n# no\n````\n# Yes\n"), "Yes");
});

test("wikiTitle() returns null when the only H1 is in an unclosed fence", (t) => {
  t.is(wikiTitle("```\n# no\n"), null);
});

test("wikiTitle() drops a closing # run and surrounding spaces", (t) => {
  t.is(wikiTitle("#   Title ##  \n"), "Title");
  t.is(wikiTitle("# C#\n"), "C#");
});

test("wikiTitle() skips empty headings", (t) => {
  t.is(wikiTitle("#\n# #\n# Real\n"), "Real");
});

test("wikiTitle() allows up to three spaces of indentation, not four", (t) => {
  t.is(wikiTitle("    # code\n   # Indented\n"), "Indented");
});

test("wikiTitle() reads CRLF pages", (t) => {
  t.is(wikiTitle("```\r\n# no\r\n```\r\n# Windows\r\n"), "Windows");
});

test("wikiTitle() reads a page whose --- is a thematic break, not frontmatter", (t) => {
  t.is(wikiTitle("---\n# Title under a rule\n"), "Title under a rule");
});

// --- page names (SEC-02) ---

const NAMES: Array<[string, string]> = [
  ["setup", "setup.md"],
  ["docs/setup", "docs/setup.md"],
  ["docs/setup.md", "docs/setup.md"],
  ["a.md.md", "a.md.md"],
  ["v1.2_notes-x", "v1.2_notes-x.md"],
  ["_draft/x", "_draft/x.md"],
];
for (const [name, rel] of NAMES) {
  test(`wikiPagePath() maps '${name}' to '${rel}'`, (t) => {
    t.is(wikiPagePath(name), rel);
    t.true(isWikiPagePath(rel));
  });
}

const BAD = [
  "",
  "..",
  "../x",
  "a/../../b",
  "a/..",
  "/etc/passwd",
  "/abs",
  "a//b",
  "a/",
  ".hidden",
  "a/.b",
  "-rf",
  "a/-b",
  "a\\b",
  "a\u0000b",
  "a b",
  "a\nb",
  "ä",
  "a:b",
  "~/x",
  "x".repeat(201),
  ".md",
];
for (const name of BAD) {
  test(`wikiPagePath() refuses ${JSON.stringify(name.slice(0, 20))} with a usage error`, (t) => {
    const err = t.throws(() => wikiPagePath(name));
    t.is((err as { exitCode?: number }).exitCode, 2);
    t.regex(err!.message, /^invalid page name '/);
    t.false(/[\x00-\x1f]/.test(err!.message), "no control characters in the message");
  });
}

test("isWikiPagePath() needs the .md and the page-name alphabet", (t) => {
  t.false(isWikiPagePath("setup"));
  t.false(isWikiPagePath("My Page.md"));
  t.false(isWikiPagePath("a/.x.md"));
});
