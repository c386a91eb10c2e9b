import test from "ava";
import { clockOf, derivedId, roundIdOf } from "./_util.js";

const L = "0b8c2a8e-6f43-4b8a-9a55-3a4f0f7b2d11";

test("derivedId() gives the same id for the same text in the same loop, and another in another loop", (t) => {
  t.regex(derivedId("cr", L, "tests pass"), /^cr-[0-9a-f]{8}$/);
  t.is(derivedId("cr", L, "tests  pass "), derivedId("cr", L, "tests pass"));
  t.not(derivedId("cr", L, "tests pass"), derivedId("cr", "1b8c2a8e-6f43-4b8a-9a55-3a4f0f7b2d11", "tests pass"));
  t.not(derivedId("c", L, "tests pass").slice(2), derivedId("sg", L, "tests pass").slice(3));
});

test("roundIdOf() is stable per logical round", (t) => {
  t.is(roundIdOf(L, 3), roundIdOf(L, 3));
  t.not(roundIdOf(L, 3), roundIdOf(L, 4));
});

test("clockOf() takes FORGE_NOW and refuses a malformed one", (t) => {
  t.is(clockOf({ FORGE_NOW: "2026-03-04T05:06:07Z" })().toISOString(), "2026-03-04T05:06:07.000Z");
  t.throws(() => clockOf({ FORGE_NOW: "yesterday" }), { code: "E_USAGE" });
  t.true(Math.abs(clockOf({})().getTime() - Date.now()) < 5000);
});
