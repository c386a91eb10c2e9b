import test from "ava";
import { failureSignature, maskLine, maskedTail, SIGNATURE_VERSION, TAIL_LINES } from "./signature.js";

test("maskLine masks timestamps, uuids, temp paths, hex ids and numbers", (t) => {
  t.is(maskLine("at 2026-01-02T03:04:05Z took 41 ms in /tmp/x1/y"), "at <ts> took <n> ms in <tmp>");
  t.is(maskLine("12:30:01.5 run 3f2a8c1e-5b7d-4e9a-8c6f-1d2e3b4a5c6d"), "<ts> run <uuid>");
  t.is(maskLine("commit a387c9d8e2 at 0x7ffe12"), "commit <hex> at <hex>");
  t.is(maskLine("expected 3.5 got 4"), "expected <n> got <n>");
  t.is(maskLine("decade deadbeef"), "decade deadbeef", "all-letter words are words, not ids");
});

test("maskLine drops escape codes and carriage-return progress, and masks the tree", (t) => {
  t.is(maskLine("\x1b[31mFAIL\x1b[0m  foo"), "FAIL foo");
  t.is(maskLine("10%\r50%\rdone"), "done");
  t.is(maskLine("error in /work/x/tree/src/a.ts", "/work/x/tree"), "error in <tree>/src/a.ts");
});

test("maskedTail keeps the last non-blank lines, in order", (t) => {
  const log = Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n\n") + "\n";
  const tail = maskedTail(log);
  t.is(tail.length, TAIL_LINES);
  t.true(tail.every((l) => l === "line <n>"));
  t.deepEqual(maskedTail("a\n\nb\n"), ["a", "b"]);
});

test("the same failure with other numbers, times and temp paths has the same signature", (t) => {
  const a = failureSignature(
    "20-test",
    "exit",
    1,
    "seed 8812\nassert failed at 2026-11-30T01:02:03Z in /tmp/forge-ci-abc/tree/x\n"
  );
  const b = failureSignature(
    "20-test",
    "exit",
    1,
    "seed 17\nassert failed at 2027-01-01T00:00:00Z in /tmp/forge-ci-zzz/tree/x\n"
  );
  t.is(a.signature, b.signature);
  t.regex(a.signature, new RegExp(`^${SIGNATURE_VERSION}:[0-9a-f]{32}$`));
  t.deepEqual(a.text, ["seed <n>", "assert failed at <ts> in <tmp>"]);
});

test("different failures have different signatures", (t) => {
  const base = failureSignature("20-test", "exit", 1, "expected 3 got 4\n").signature;
  t.not(failureSignature("20-test", "exit", 1, "TypeError: x is undefined\n").signature, base, "another message");
  t.not(failureSignature("30-lint", "exit", 1, "expected 3 got 4\n").signature, base, "another step");
  t.not(failureSignature("20-test", "exit", 2, "expected 3 got 4\n").signature, base, "another exit code");
  t.not(failureSignature("20-test", "timeout", null, "expected 3 got 4\n").signature, base, "a timeout");
  t.not(failureSignature("20-test", "signal", 9, "expected 3 got 4\n").signature, base, "a signal");
});
