import test from "ava";
import { ISSUE, toFrontmatter, validate } from "./schema.js";

const F = ".forge/issues/x/issue.md";
const good = {
  title: "t",
  id: "0b8c2a8e-6f43-4b8a-9a55-3a4f0f7b2d11",
  state: "open",
  author: "a",
  createdAt: "2026-01-02T03:04:05Z",
};

test("validate() fills empty lists and keeps unknown fields with a warning", (t) => {
  const v = validate(ISSUE, { ...good, labels: null, zzz: 1 }, F);
  t.deepEqual(v.data.labels, []);
  t.deepEqual(v.data.assignees, []);
  t.deepEqual(v.extra, { zzz: 1 });
  t.deepEqual(v.warnings, [`${F}: unknown field 'zzz' (kept)`]);
});

for (const field of ["title", "id", "state", "author", "createdAt"]) {
  test(`validate() names the file and '${field}' when it is missing`, (t) => {
    const raw: Record<string, unknown> = { ...good };
    delete raw[field];
    t.throws(() => validate(ISSUE, raw, F), { message: `${F}: field '${field}': missing` });
  });
}

const bad = [
  ["state", "OPEN", /expected one of open\|closed/],
  ["createdAt", "2026-01-02 03:04:05", /RFC 3339/],
  ["createdAt", "2026-02-30T00:00:00Z", /RFC 3339/],
  ["id", "0B8C2A8E-6F43-4B8A-9A55-3A4F0F7B2D11", /uuid/],
  ["title", "", /non-empty/],
  ["title", 5, /non-empty string/],
  ["labels", "bug", /expected a list/],
  ["labels", ["ok", ""], /non-empty strings/],
] as const;
for (const [field, value, msg] of bad) {
  test(`validate() rejects ${field} = ${JSON.stringify(value)}`, (t) => {
    t.throws(() => validate(ISSUE, { ...good, [field]: value }, F), { message: msg });
  });
}

test("toFrontmatter() writes known fields in schema order, then unknown ones", (t) => {
  const out = toFrontmatter(ISSUE, { createdAt: "c", title: "t", labels: [] }, { zzz: 1 });
  t.deepEqual(Object.keys(out), ["title", "createdAt", "labels", "zzz"]);
});
