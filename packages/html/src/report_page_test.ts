import test from "ava";
import type { NodeLine, ObservationLine, PrLine, SyndromeLine } from "@forge/contract";
import { liveMarkup, manyChecks } from "./_fixture.js";
import { esc } from "./escape.js";
import { renderReportPage } from "./report_page.js";
import { outcomeStrip, rateBar } from "./svg.js";

const HOSTILE =
  `</svg></td></table><script>alert(1)</script>` + `<img src=x onerror=alert(2)> \u202Eexe.txt \u2066x\u2069 "q' &amp;`;

function hostileInput(): Parameters<typeof renderReportPage>[0] {
  const base = manyChecks(3, 20);
  const node = base.lines.find((l): l is NodeLine => l.kind === "node")!;
  node.subject = { ...node.subject, step: HOSTILE };
  const pr: PrLine = {
    base_ref: HOSTILE,
    base_sha: null,
    checks: [HOSTILE],
    ci: null,
    closes: [],
    effects: { [HOSTILE]: "regressed" },
    head_sha: null,
    id: "p1",
    kind: "pr",
    number: 7,
    patch_sha256: HOSTILE,
    previous_patch_sha256: [],
    runs: [],
    state: HOSTILE,
  };
  const syn: SyndromeLine = {
    active: true,
    active_claim_ids: [node.claim_id],
    claim_ids: [node.claim_id],
    failing_claim_ids: [],
    kind: "syndrome",
    signature: HOSTILE,
    tree: null,
    trials: 1,
  };
  return {
    ...base,
    title: HOSTILE,
    lines: [...base.lines, pr, syn] as ObservationLine[],
    detail: { ...base.detail, seen: { [HOSTILE]: { first: HOSTILE, last: HOSTILE } }, imports: [HOSTILE] },
    forge_version: HOSTILE,
    loop: {
      halt: { reason: HOSTILE, detail: HOSTILE },
      summary: HOSTILE,
      trace: [{ target_key: HOSTILE, plan_kind: HOSTILE, outcome_signature: HOSTILE, recorded_at: HOSTILE }],
      findings: [`${HOSTILE} — unresolved`],
    },
  };
}

test("esc() turns markup into entities and bidi controls into visible code points", (t) => {
  t.is(esc(`<a href="x">'&'</a>`), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  t.is(esc("a\u202Eb\u2066c\u200Fd\u0000e"), "a[U+202E]b[U+2066]c[U+200F]d[U+0000]e");
  t.is(esc("plain words, ünïcödé, 日本"), "plain words, ünïcödé, 日本");
});

test("renderReportPage() shows hostile titles and names as text, never as markup", (t) => {
  const html = renderReportPage(hostileInput());
  t.deepEqual(liveMarkup(html), []);
  t.false(/https?:/.test(html));
  t.false(/[\u202A-\u202E\u2066-\u2069]/.test(html));
  // Every <svg> the page opens it closes, and no planted </svg> closed one early.
  t.is(html.split("<svg").length, html.split("</svg>").length);
  t.true(html.includes("&lt;/svg&gt;&lt;/td&gt;&lt;/table&gt;&lt;script&gt;alert(1)&lt;/script&gt;"));
  t.true(html.includes("[U+202E]exe.txt"));
  // The page forbids every fetch and every script itself too.
  t.true(html.includes(`content="default-src 'none'; style-src 'unsafe-inline'"`));
});

test("renderReportPage() gives the same bytes for the same input", (t) => {
  t.is(renderReportPage(manyChecks(10, 50)), renderReportPage(manyChecks(10, 50)));
  t.is(renderReportPage(hostileInput()), renderReportPage(hostileInput()));
});

test("renderReportPage() has a row per check with its verdict, interval bar and strip", (t) => {
  const html = renderReportPage(manyChecks(10, 50));
  t.is(html.match(/<td id="check-/g)?.length, 10);
  t.is(html.match(/data-verdict="flaky"/g)?.length, 5);
  t.is(html.match(/<svg class="bar"/g)?.length, 10);
  t.is(html.match(/<svg class="strip"/g)?.length, 10);
});

test("renderReportPage() of 100 checks × 1,000 trials stays under 1 MB", (t) => {
  const bytes = Buffer.byteLength(renderReportPage(manyChecks(100, 1000)));
  t.true(bytes <= 1_000_000, `${bytes} bytes`);
});

test("outcomeStrip() draws each run of fails and errors once, in order", (t) => {
  t.is(
    outcomeStrip("ppffpe"),
    `<svg class="strip" viewBox="0 0 6 8" preserveAspectRatio="none" role="img" ` +
      `aria-label="6 trials in order: 3 pass, 2 fail, 1 error">` +
      `<title>6 trials in order: 3 pass, 2 fail, 1 error</title>` +
      `<rect class="p" width="6" height="8"/><path class="f" d="M0 4m2 0h2"/><path class="e" d="M0 4m5 0h1"/></svg>`
  );
  t.is(outcomeStrip(""), `<span class="none">no trials</span>`);
});

test("rateBar() puts the interval and the rate on the 0–1 axis", (t) => {
  const svg = rateBar(100_000, 250_000, 400_000, "x");
  t.true(svg.includes(`<rect class="iv" x="10" y="3" width="30" height="6"/>`));
  t.true(svg.includes(`<path class="r" d="M25 1v10"/>`));
  t.false(rateBar(0, null, 50_000, "x").includes(`class="r"`));
});
