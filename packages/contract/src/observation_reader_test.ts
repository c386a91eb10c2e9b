import test from "ava";
import { ObservationReader, readObservation } from "./observation_reader.js";

const HEADER = '{"kind":"observation","scope":"default"}';

/** A node line with the fields forge-plan reads. */
function nodeLine(id: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    kind: "node",
    claim_id: id,
    claim_kind: "check",
    current: true,
    verdict: "passing",
    passes: 3,
    fails: 0,
    trials: 3,
    support_members: 0,
    belief_micros: null,
    duration_ms: null,
    patch_sha256: null,
    head_sha: null,
    tree: null,
    signatures: [],
    env_fingerprints: [],
    flake_rate: null,
    subject: { step: "10-test" },
    pr: null,
    ...over,
  };
}
const PR = { kind: "pr", id: "p", number: 1, state: "open", patch_sha256: "x", previous_patch_sha256: [], checks: [] };

test("readObservation(): lines grouped by kind, in order; blank lines skipped", (t) => {
  const node = (id: string): string => JSON.stringify(nodeLine(id));
  const lines = [HEADER, "", node("a"), JSON.stringify(PR), node("b")];
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

test("readObservation(): a wrong or missing field forge-plan reads is one error naming line and field", (t) => {
  const withoutCounts = nodeLine("a");
  delete withoutCounts.passes;
  const cases: Array<[string, string]> = [
    [
      '{"kind":"observation","markers":{"a":1}}',
      "stdin line 1: observation line: field 'markers': expected a list of strings",
    ],
    [
      '{"kind":"observation","health":{}}',
      "stdin line 1: observation line: field 'health.last_import_at': expected a string or null",
    ],
    [`${HEADER}\n${JSON.stringify(withoutCounts)}`, "stdin line 2: node line: field 'passes': expected a number"],
    [
      `${HEADER}\n${JSON.stringify(nodeLine("a", { signatures: "x" }))}`,
      "stdin line 2: node line: field 'signatures': expected a list of strings",
    ],
    [
      `${HEADER}\n${JSON.stringify(nodeLine("a", { flake_rate: {} }))}`,
      "stdin line 2: node line: field 'flake_rate.decided': expected true or false",
    ],
    [
      `${HEADER}\n${JSON.stringify({ ...PR, number: "1" })}`,
      "stdin line 2: pr line: field 'number': expected a number",
    ],
    [
      `${HEADER}\n{"kind":"syndrome","signature":"s","active":true}`,
      "stdin line 2: syndrome line: field 'failing_claim_ids': expected a list of strings",
    ],
    [
      `${HEADER}\n{"kind":"issue","id":"i","closing_prs":[{"id":"p"}]}`,
      "stdin line 2: issue line: field 'closing_prs': expected a list of {id, number}",
    ],
    [
      `${HEADER}\n{"kind":"degradation","marker":"m","refs":null}`,
      "stdin line 2: degradation line: field 'refs': expected a list of strings",
    ],
    [
      `${HEADER}\n{"kind":"unverified","claim_id":"c"}`,
      "stdin line 2: unverified line: field 'why': expected a string",
    ],
  ];
  for (const [text, message] of cases) {
    const err = t.throws(() => readObservation(text), { message });
    t.is((err as Error & { exitCode?: number }).exitCode, 1, message);
  }
});

test("ObservationReader: a line over 16 MiB is refused naming the limit, its bytes not held", (t) => {
  const r = new ObservationReader();
  r.add(Buffer.from(`${HEADER}\n{"kind":"node","x":"`));
  const mb = Buffer.alloc(1024 * 1024, 0x78);
  for (let i = 0; i < 17; i++) r.add(mb);
  const err = t.throws(() => r.add(Buffer.from('"}\n')), {
    message: "stdin line 2: longer than the 16 MiB line limit",
  });
  t.is((err as Error & { exitCode?: number }).exitCode, 1);
});
