import test from "ava";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_FILE_BYTES, readReports, testsPattern, type StepReports } from "./reports.js";

function reports(files: Record<string, string>, tree = "/work/tree"): StepReports {
  const dir = mkdtempSync(join(tmpdir(), "forge-reports-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return readReports("20-unit", dir, tree);
}

// What node 20's `--test-reporter=junit` writes (trimmed).
const NODE_JUNIT = `<?xml version="1.0" encoding="utf-8"?>
<testsuites>
  <testsuite name="parser" time="0.08" tests="3" failures="1" skipped="1" hostname="vm">
    <testcase name="handles --" time="0.085840" classname="test"/>
    <testcase name="fails &lt;here>" time="0.000927" classname="test" failure="expected 1 &amp; 2">
      <failure type="testCodeFailure" message="expected 1 &amp; 2">
AssertionError: expected 1 at /tmp/x123 &amp; 2
    at TestContext.&lt;anonymous> (/work/tree/test/dash.test.js:5:37)
      </failure>
    </testcase>
    <testcase name="skipped one" time="0.000295" classname="test"><skipped type="skipped" message="true"/></testcase>
  </testsuite>
  <testcase name="top level" time="0.088678" classname="test"/>
  <!-- tests 4 -->
</testsuites>`;

test("node:test's JUnit: suites, outcomes, durations, a masked failure signature", (t) => {
  const r = reports({ "junit.xml": NODE_JUNIT });
  t.is(r.error, null);
  t.deepEqual(
    r.tests.map((c) => [c.id, c.name, c.outcome, c.durationMs]),
    [
      ["parser › handles --", "handles --", "pass", 86],
      ["parser › fails <here>", "fails <here>", "fail", 1],
      ["parser › skipped one", "skipped one", "skip", 0],
      ["top level", "top level", "pass", 89],
    ]
  );
  t.regex(r.tests[1]!.signature!, /^sig-v1:[0-9a-f]{32}$/);
  t.is(r.tests[0]!.signature, null);
  // Another temp path, line number and tree: the same failure, the same signature.
  const moved = NODE_JUNIT.replace("/tmp/x123", "/tmp/y9").replace(":5:37", ":6:1").replace("/work/tree/", "/w2/");
  const again = reports({ "junit.xml": moved }, "/w2");
  t.is(again.tests[1]!.signature, r.tests[1]!.signature);
  const other = reports({ "junit.xml": NODE_JUNIT.replace("expected 1 at", "expected 7 to be") });
  t.not(other.tests[1]!.signature, r.tests[1]!.signature);
});

test("pytest, jest-junit, vitest, mocha and gotestsum shapes give readable, unique ids", (t) => {
  const pytest = `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="1" failures="0">
<testcase classname="tests.test_x" name="test_a" file="tests/test_x.py" time="0.01"/>
<testcase classname="tests.test_x" name="test_b" file="tests/test_x.py" time="0.02">
<error message="fixture">E boom</error></testcase>
</testsuite></testsuites>`;
  const jest = `<testsuites name="jest tests"><testsuite name="math" file="/work/tree/src/math.test.js">
<testcase classname="math adds" name="math adds" time="0.003"/></testsuite></testsuites>`;
  const vitest = `<testsuites><testsuite name="test/a.test.ts">
<testcase classname="test/a.test.ts" name="a &gt; b" time="0.1">
<failure message="x"><![CDATA[AssertionError: x]]></failure></testcase></testsuite></testsuites>`;
  const gotest = `<testsuites><testsuite name="example.com/p" tests="1"><testcase classname="example.com/p" name="TestX"
 time="0.000"></testcase><testcase classname="example.com/p" name="TestX" time="0.000"></testcase>
</testsuite></testsuites>`;
  const r = reports({ "a/pytest.xml": pytest, "b/jest.xml": jest, "c/vitest.xml": vitest, "d/go.xml": gotest });
  t.is(r.error, null);
  t.deepEqual(
    r.tests.map((c) => [c.id, c.outcome]),
    [
      ["pytest › tests.test_x › test_a (tests/test_x.py)", "pass"],
      ["pytest › tests.test_x › test_b (tests/test_x.py)", "error"],
      ["math › math adds (src/math.test.js)", "pass"],
      ["test/a.test.ts › a > b", "fail"],
      ["example.com/p › TestX", "pass"],
      ["example.com/p › TestX #2", "pass"],
    ]
  );
  t.truthy(r.tests[3]!.signature);
});

test("TAP with node:test's subtests, directives and YAML blocks", (t) => {
  const tap = `TAP version 13
# Subtest: parser
    # Subtest: handles --
    ok 1 - handles --
      ---
      duration_ms: 1.4
      ...
    not ok 2 - fails
      ---
      duration_ms: 3
      error: 'expected 1 at /tmp/x9'
      ...
    ok 3 - later # SKIP
    1..3
not ok 1 - parser
  ---
  type: 'suite'
  ...
ok 2 - top level
not ok 3 - todo one # TODO not yet
1..3
`;
  const r = reports({ "out.tap": tap });
  t.is(r.error, null);
  t.deepEqual(
    r.tests.map((c) => [c.id, c.outcome, c.durationMs]),
    [
      ["parser › handles --", "pass", 1],
      ["parser › fails", "fail", 3],
      ["parser › later", "skip", 0],
      ["top level", "pass", 0],
      ["todo one", "skip", 0],
    ]
  );
  t.regex(r.tests[1]!.signature!, /^sig-v1:/);
});

test("no folder, an empty folder or other files: no tests and no error", (t) => {
  t.deepEqual(readReports("20-unit", join(tmpdir(), "forge-no-such-reports-dir"), ""), { tests: [], error: null });
  t.deepEqual(reports({ "notes.txt": "hello" }), { tests: [], error: null });
});

test("hostile JUnit is refused with one line naming the file; nothing is read", (t) => {
  const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">
]><testsuites><testsuite name="&lol2;"><testcase name="x"/></testsuite></testsuites>`;
  const external = `<?xml version="1.0"?><!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]>
<testsuites><testcase name="&x;"/></testsuites>`;
  const open = "<testsuite name='s'>".repeat(200);
  const deep = `<testsuites>${open}<testcase name="x"/>${"</testsuite>".repeat(200)}</testsuites>`;
  const cases: Array<[string, string, RegExp]> = [
    ["laughs.xml", laughs, /DOCTYPE or entity declaration/],
    ["ext.xml", external, /DOCTYPE or entity declaration/],
    ["deep.xml", deep, /nested deeper than 64/],
    ["broken.xml", "<testsuites><testcase name='x'></testsuites>", /not well-formed XML/],
  ];
  for (const [name, text, why] of cases) {
    const r = reports({ [name]: text, "z-good.xml": NODE_JUNIT });
    t.deepEqual(r.tests, [], name);
    t.regex(r.error!, new RegExp(`^20-unit: report ${name.replace(".", "\\.")}: refused: `), name);
    t.regex(r.error!, why, name);
    t.false(r.error!.includes("\n"), name);
  }
  const big = reports({ "big.xml": "<testsuites>" + " ".repeat(MAX_FILE_BYTES) + "</testsuites>" });
  t.regex(big.error!, /^20-unit: report big\.xml: refused: \d+ bytes, over the 8388608 a report may have$/);
});

test("a symlinked report is refused, not followed", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "forge-reports-"));
  symlinkSync("/etc/passwd", join(dir, "x.xml"));
  const r = readReports("20-unit", dir, "");
  t.deepEqual(r.tests, []);
  t.regex(r.error!, /not a regular file/);
});

test("testsPattern escapes each name and joins them", (t) => {
  t.is(testsPattern(["handles --", "a.b (c)", "a.b (c)"]), "handles --|a\\.b \\(c\\)");
  t.true(new RegExp(testsPattern(["a.b (c)"])).test("suite a.b (c)"));
  t.false(new RegExp(testsPattern(["a.b"])).test("axb"));
});
