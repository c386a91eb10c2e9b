import test from "ava";
import { ObservationReader, readObservation } from "./observation_reader.js";

const HEADER = '{"kind":"observation","scope":"default"}';

test("readObservation(): lines grouped by kind, in order; blank lines skipped", (t) => {
  const node = (id: string): string => `{"kind":"node","claim_id":"${id}"}`;
  const lines = [HEADER, "", node("a"), '{"kind":"pr","id":"p"}', node("b")];
  const o = readObservation(lines.join("\n") + "\n");
  t.is(o.header.scope, "default");
  t.deepEqual(
    o.nodes.map((n) => n.claim_id),
    ["a", "b"]
  );
  t.deepEqual(
    o.prs.map((p) => p.id),
    ["p"]
  );
  t.deepEqual([o.syndromes, o.issues, o.degradations, o.unverified], [[], [], [], []]);
});

test("readObservation(): a kind it does not handle is a usage error (exit 2), even an Object method's name", (t) => {
  for (const kind of ["plan", "constructor", "toString", "__proto__"]) {
    const text = `${HEADER}\n{"kind":"${kind}"}\n`;
    const err = t.throws(() => readObservation(text), { message: /is not an observation line/ });
    t.is((err as Error & { exitCode?: number }).exitCode, 2, kind);
  }
});

test("readObservation(): bad JSON, a non-object, a second header and a headless line name their line (exit 1)", (t) => {
  const cases: Array<[string, string]> = [
    [`${HEADER}\n{`, "stdin line 2: not JSON"],
    [`${HEADER}\n[1]`, "stdin line 2: field 'kind': expected an object with a kind"],
    [`${HEADER}\n${HEADER}`, "stdin line 2: a second observation header"],
    ['{"kind":"issue"}', "stdin line 1: a issue line before the observation header"],
    ["", "no observation on stdin (pipe forge-observe --json in)"],
  ];
  for (const [text, message] of cases) {
    const err = t.throws(() => readObservation(text), { message });
    t.is((err as Error & { exitCode?: number }).exitCode, 1, message);
  }
});

test("ObservationReader: nothing but blank lines is no observation (undefined), not an error", (t) => {
  const r = new ObservationReader();
  r.add(Buffer.from("\n \n"));
  t.is(r.end(), undefined);
});
