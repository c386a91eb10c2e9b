import test from "ava";
import { checkDefined } from "./check_defs.js";

const defs = (labels: string[], milestones: string[]) => ({
  labels: new Map(labels.map((name) => [name, { name, color: "", description: "" }])),
  milestones: new Map(
    milestones.map((title, i) => [
      title,
      { number: i + 1, title, description: "", dueOn: null, state: "OPEN" as const },
    ])
  ),
});

test("checkDefined() accepts defined names, ignoring case", (t) => {
  t.notThrows(() => checkDefined(defs(["bug", "help wanted"], ["v1"]), ["Bug", "help wanted"], "V1"));
});

test("checkDefined() names an undefined label or milestone, as gh does", (t) => {
  t.throws(() => checkDefined(defs(["bug"], ["v1"]), ["bug", "nope"]), {
    message: "could not add label: 'nope' not found",
    code: "E_NOT_FOUND",
  });
  t.throws(() => checkDefined(defs(["bug"], ["v1"]), [], "v9"), {
    message: "could not add to milestone 'v9': not found",
  });
});

test("checkDefined() refuses every label where none is defined, but leaves milestones free", (t) => {
  // gh refuses a label the repository lacks, whatever it has; a repository with no milestones is not checked.
  t.throws(() => checkDefined(defs([], []), ["anything"]), { message: "could not add label: 'anything' not found" });
  t.notThrows(() => checkDefined(defs([], []), [], "any"));
});
