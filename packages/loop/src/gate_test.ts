import test from "ava";
import { actionHash, classify, parseDescriptor } from "./gate.js";

const base = {
  description: "Apply the production database migration",
  scope: ["db/migrations/2026-01.sql"],
  effects: ["data_migration", "production"],
  reversibility: "recoverable",
  authorization: "user_required",
};

test("actionHash() is the same for the same descriptor in any key or list order", (t) => {
  const a = parseDescriptor(JSON.stringify(base));
  const b = parseDescriptor(
    JSON.stringify({
      authorization: "user_required",
      effects: ["production", "data_migration", "production"],
      reversibility: "recoverable",
      scope: base.scope,
      description: base.description,
    })
  );
  t.is(actionHash(a), actionHash(b));
  t.regex(actionHash(a), /^[0-9a-f]{64}$/);
});

test("actionHash() changes when any part of the action changes", (t) => {
  const h = actionHash(parseDescriptor(JSON.stringify(base)));
  for (const change of [
    { description: "Apply another migration" },
    { scope: ["db/migrations/2026-02.sql"] },
    { effects: ["data_migration"] },
    { reversibility: "irreversible" },
  ]) {
    t.not(actionHash(parseDescriptor(JSON.stringify({ ...base, ...change }))), h, JSON.stringify(change));
  }
});

test("classify() asks the user for each listed risk class, unknown effects and unknown authorization", (t) => {
  for (const e of [
    "production",
    "credentials",
    "data_migration",
    "publishing",
    "payment",
    "external_communication",
    "public_api_change",
    "teleport",
  ]) {
    const d = parseDescriptor(
      JSON.stringify({
        description: "x",
        scope: [],
        effects: [e],
        reversibility: "reversible",
        authorization: "agent_allowed",
      })
    );
    t.is(classify(d).gate, "user", e);
  }
  t.is(
    classify(parseDescriptor(JSON.stringify({ description: "x", effects: ["workspace_write"] }))).gate,
    "user",
    "unknown reversibility and authorization"
  );
  t.is(
    classify(
      parseDescriptor(
        JSON.stringify({
          description: "x",
          effects: ["workspace_write"],
          reversibility: "irreversible",
          authorization: "agent_allowed",
        })
      )
    ).gate,
    "user"
  );
  t.deepEqual(
    classify(
      parseDescriptor(
        JSON.stringify({
          description: "x",
          effects: ["workspace_write"],
          reversibility: "reversible",
          authorization: "agent_allowed",
        })
      )
    ),
    { gate: "agent", risks: [] }
  );
});

test("parseDescriptor() refuses unknown fields and bad values", (t) => {
  t.throws(() => parseDescriptor(JSON.stringify({ ...base, approved: true })), { message: /approved/ });
  t.throws(() => parseDescriptor(JSON.stringify({ ...base, reversibility: "maybe" })), { message: /reversibility/ });
  t.throws(() => parseDescriptor("nope"), { message: /not JSON/ });
});
