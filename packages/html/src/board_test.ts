import test from "ava";
import { liveMarkup, manyIssues } from "./_fixture.js";
import { renderBoard } from "./board.js";
import { cssColor } from "./escape.js";

test("renderBoard() puts each card in its column, blocked cards marked", (t) => {
  const html = renderBoard({
    title: "b",
    columns: [
      { name: "todo", cards: [{ number: 1, title: "a", labels: [], assignees: ["al"], blocked: false, meta: "" }] },
      {
        name: "blocked",
        cards: [{ number: 2, title: "b", labels: [], assignees: [], blocked: true, meta: "issue #3" }],
      },
    ],
  });
  t.regex(html, /<h2>todo \(1\)<\/h2>\n<div class="card" id="card-1"><b>#1<\/b> a<div class="meta">@al<\/div><\/div>/);
  t.regex(html, /<h2>blocked \(1\)<\/h2>\n<div class="card blocked" id="card-2"><span class="blk">blocked<\/span>/);
  t.true(html.includes(`<div class="meta">issue #3</div>`));
});

test("renderBoard() escapes hostile titles, labels, assignees and colours", (t) => {
  const evil = `</svg><script>alert(1)</script>\u202Egnp.exe`;
  const html = renderBoard({
    title: evil,
    columns: [
      {
        name: evil,
        cards: [
          {
            number: 1,
            title: evil,
            labels: [{ name: evil, color: `red;background:url(https://x.example/)` }],
            assignees: [evil],
            blocked: true,
            meta: evil,
          },
        ],
      },
    ],
  });
  t.deepEqual(liveMarkup(html), []);
  t.false(/https?:/.test(html));
  t.false(html.includes("\u202E"));
  t.true(html.includes("&lt;/svg&gt;&lt;script&gt;alert(1)&lt;/script&gt;[U+202E]gnp.exe"));
});

test("cssColor() lets only hex colours through", (t) => {
  t.is(cssColor("D73A4A"), "#d73a4a");
  t.is(cssColor("#abc"), "#abc");
  t.is(cssColor("red;x:url(a)"), "#ededed");
  t.is(cssColor(null), "#ededed");
});

test("renderBoard() of 1,000 issues stays under 500 KB and is deterministic", (t) => {
  const html = renderBoard(manyIssues(1000));
  t.true(Buffer.byteLength(html) <= 500_000, `${Buffer.byteLength(html)} bytes`);
  t.is(html.match(/class="card/g)?.length, 1000);
  t.is(html, renderBoard(manyIssues(1000)));
});
