import test from "ava";
import { checkDescription, checkName, defaultColor, labelItem, labelJson, normColor } from "./_shared.js";

test("checkName() accepts YAML syntax, unicode and inner spaces as they are", (t) => {
  for (const n of ["a: b", "#x", "[y]", "*z", '"q"', "help wanted", "ünï ✓", "null", "x".repeat(50)])
    t.is(checkName(n), n);
});

const badNames: Array<[string, RegExp]> = [
  ["", /empty/],
  [" \t", /empty/],
  ["a\nb", /one line/],
  ["a\u0085b", /one line/],
  ["a\u2029b", /one line/],
  ["a,b", /comma/],
  [" a", /space/],
  ["a ", /space/],
  ["x".repeat(51), /50 characters/],
];
for (const [n, msg] of badNames) {
  test(`checkName() refuses ${JSON.stringify(n).slice(0, 20)}`, (t) => {
    const err = t.throws(() => checkName(n), { message: msg });
    t.is((err as unknown as { exitCode: number }).exitCode, 2);
  });
}

test("checkDescription() takes one line of up to 100 characters", (t) => {
  t.is(checkDescription("Something isn't working: really"), "Something isn't working: really");
  t.is(checkDescription(""), "");
  t.throws(() => checkDescription("a\nb"), { message: /one line/ });
  t.throws(() => checkDescription("d".repeat(101)), { message: /100 characters/ });
});

test("normColor() lowercases and drops gh's optional #; anything else is refused", (t) => {
  t.is(normColor("#D73A4A"), "d73a4a");
  t.is(normColor("008672"), "008672");
  for (const bad of ["fff", "#fff", "red", "d73a4a0", "##d73a4a", "d73a4g", ""])
    t.throws(() => normColor(bad), { message: /invalid color/ });
});

test("defaultColor() is one of gh's 16 label colours, the same for the same name", (t) => {
  const palette = new Set([
    "b60205",
    "d93f0b",
    "fbca04",
    "0e8a16",
    "006b75",
    "1d76db",
    "0052cc",
    "5319e7",
    "e99695",
    "f9d0c4",
    "fef2c0",
    "c2e0c6",
    "bfdadc",
    "c5def5",
    "bfd4f2",
    "d4c5f9",
  ]);
  const names = ["bug", "wontfix", "a", "b", "c", "d", "e", "f", "g", "h"];
  for (const n of names) t.true(palette.has(defaultColor(n)), n);
  t.is(defaultColor("bug"), defaultColor("bug"));
  t.true(new Set(names.map(defaultColor)).size > 1, "not one colour for every name");
});

test(
  "labelItem() leaves out an empty description and keeps " + "other fields; labelJson() fills gh's empty strings",
  (t) => {
    t.deepEqual(labelItem("bug", "d73a4a", "", { name: "Bug", description: "old", team: "ops" }), {
      name: "bug",
      team: "ops",
      color: "d73a4a",
    });
    t.deepEqual(labelJson({ name: "ui" }), { color: "", description: "", name: "ui" });
  }
);
