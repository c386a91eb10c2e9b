import test from "ava";
import { wikiTitle } from "./wiki_page.js";

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
