import test from "ava";
import { formatTimestamp, isTimestamp } from "./time.js";

const ok = test.macro((t, s: string, want: boolean) => {
  t.is(isTimestamp(s), want);
});

for (const s of [
  "2026-01-02T03:04:05Z",
  "2024-02-29T23:59:59Z",
  "2000-02-29T00:00:00Z",
  "0000-01-01T00:00:00Z",
  "9999-12-31T23:59:59Z",
]) {
  test(`isTimestamp() accepts ${s}`, ok, s, true);
}
for (const s of [
  "2025-13-01T00:00:00Z",
  "2025-00-10T00:00:00Z",
  "2025-01-00T00:00:00Z",
  "2025-02-29T00:00:00Z",
  "1900-02-29T00:00:00Z",
  "2025-04-31T00:00:00Z",
  "2025-01-01T24:00:00Z",
  "2025-01-01T00:60:00Z",
  "2025-01-01T00:00:60Z",
  "2025-01-01T00:00:00",
  "2025-01-01 00:00:00Z",
  "2025-01-01T00:00:00.000Z",
  "2025-01-01T00:00:00+00:00",
  "",
]) {
  test(`isTimestamp() rejects ${JSON.stringify(s)} without throwing`, ok, s, false);
}

test("isTimestamp() agrees with a Date round trip on every day of 2023 and 2024", (t) => {
  for (let ms = Date.UTC(2023, 0, 1); ms < Date.UTC(2025, 0, 1); ms += 86_400_000 + 3_661_000) {
    t.true(isTimestamp(formatTimestamp(new Date(ms))));
  }
});

test("isTimestamp() rejects values that are not strings", (t) => {
  for (const v of [undefined, null, 0, new Date(0), ["2026-01-02T03:04:05Z"]]) t.false(isTimestamp(v));
});
