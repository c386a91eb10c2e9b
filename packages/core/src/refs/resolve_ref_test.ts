import test from "ava";
import { resolveRef } from "./resolve_ref.js";

const ids = [
  "aaaa1111-0000-4000-8000-000000000001",
  "aaaa2222-0000-4000-8000-000000000002",
  "bbbb0000-0000-4000-8000-000000000003",
];
const entries = ids.map((id, i) => ({ ref: { id, archived: false }, createdAt: `2026-01-0${i + 1}T00:00:00Z` }));

const ok = [
  ["2", 2],
  ["#3", 3],
  [ids[0]!, 1],
  ["bbbb", 3],
  ["aaaa2", 2],
  ["AAAA2", 2],
  ["aaaa1111-0000", 1],
  ["https://example.com/o/r/issues/2", 2],
  ["file:///home/u/proj/issues/3", 3],
] as const;
for (const [input, number] of ok) {
  test(`resolveRef() resolves '${input}' to #${number}`, (t) => {
    t.is(resolveRef(entries, input, "issue").number, number);
  });
}

test("resolveRef() rejects a 3-character prefix as a usage error", (t) => {
  t.throws(() => resolveRef(entries, "aaa", "issue"), { message: /invalid issue ref 'aaa'/, instanceOf: Error });
  t.is(
    (() => {
      try {
        resolveRef(entries, "aaa", "issue");
      } catch (e) {
        return (e as { exitCode: number }).exitCode;
      }
      return 0;
    })(),
    2
  );
});

test("resolveRef() reports an ambiguous prefix", (t) => {
  t.throws(() => resolveRef(entries, "aaaa", "issue"), { message: "issue ref 'aaaa' matches more than one issue" });
});

test("resolveRef() reports a number past the end and an unknown prefix", (t) => {
  t.throws(() => resolveRef(entries, "4", "issue"), { message: "no issue #4" });
  t.throws(() => resolveRef(entries, "cccc", "issue"), { message: "no issue matches 'cccc'" });
});

test("resolveRef() rejects text that is neither a number nor hex", (t) => {
  t.throws(() => resolveRef(entries, "hello", "issue"), { message: /invalid issue ref/ });
  t.throws(() => resolveRef(entries, "0", "issue"), { message: /invalid issue ref|no issue/ });
});

test("resolveRef() refuses a number while an unreadable entity could rank anywhere, but still takes ids", (t) => {
  const unranked = [
    {
      ref: { id: "cccc0000-0000-4000-8000-000000000009", archived: false },
      error: new Error(".forge/issues/c/issue.md: larger than 256 KiB"),
    },
  ];
  t.throws(() => resolveRef(entries, "1", "issue", unranked), {
    message: new RegExp(
      /^cannot resolve #1 while numbers are uncertain \(use an id\): /.source +
        /\.forge\/issues\/c\/issue\.md: larger than 256 KiB$/.source
    ),
  });
  t.is(resolveRef(entries, "bbbb", "issue", unranked).number, 3);
  t.throws(() => resolveRef(entries, "cccc", "issue", unranked), { message: /larger than 256 KiB/ });
});

test("resolveRef() takes a PR's URL for a PR and refuses it for an issue", (t) => {
  t.is(resolveRef(entries, "https://example.com/o/r/pull/2", "pull request").number, 2);
  t.throws(() => resolveRef(entries, "https://example.com/o/r/pull/2", "issue"), { message: /is no issue URL/ });
});
