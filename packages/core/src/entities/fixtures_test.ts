// The golden fixtures of spec/fixtures/: one file per entity of schema v1.
// Every frontmatter fixture is valid, canonical (round-trips byte for byte
// and is read by the fast parser, which agrees with the general engine),
// and loses validity, with a message naming file and field, when any
// required field is taken away.
import test from "ava";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { formatFrontmatter, parseFrontmatter, parseFrontmatterFast } from "../frontmatter/parse.js";
import { parseWithEngine } from "../frontmatter/_engine.js";
import { formatCiEnv, parseCiEnv } from "./ci_env.js";
import { isCiStepName } from "./ci_step.js";
import { wikiTitle } from "./wiki_page.js";
import {
  CI_RUN,
  COMMENT,
  EDIT,
  IMPORT_RECORD,
  ISSUE,
  LABELS,
  MERGE_RECORD,
  MILESTONES,
  PR,
  PR_REVIEW,
  RELEASE,
  TASK,
  toFrontmatter,
  validate,
  type EntitySchema,
} from "./schema.js";

// Compiled to packages/core/dist/entities/: the repo root is four levels up.
const DIR = fileURLToPath(new URL("../../../../spec/fixtures/", import.meta.url));

const FRONTMATTER: ReadonlyArray<[string, EntitySchema]> = [
  ["issue.md", ISSUE],
  ["issue-comment.md", COMMENT],
  ["pr.md", PR],
  ["pr-review.md", PR_REVIEW],
  ["pr-comment.md", COMMENT],
  ["issue-edit.md", EDIT],
  ["pr-edit.md", EDIT],
  ["task.md", TASK],
  ["labels.md", LABELS],
  ["milestones.md", MILESTONES],
  ["release.md", RELEASE],
  ["merge-record.md", MERGE_RECORD],
  ["import-record.md", IMPORT_RECORD],
  ["ci-run-summary.md", CI_RUN],
];
const OTHER = ["ci-env.env", "ci-step.sh", "wiki-page.md"];

const read = (name: string): string => readFileSync(DIR + name, "utf8");
const fileOf = (name: string): string => `spec/fixtures/${name}`;

test("spec/fixtures/ holds exactly one fixture per entity of schema v1", (t) => {
  t.true(existsSync(DIR), `spec/fixtures not found at ${DIR}`);
  t.deepEqual(readdirSync(DIR).sort(), [...FRONTMATTER.map(([n]) => n), ...OTHER].sort());
});

for (const [name, schema] of FRONTMATTER) {
  test(`${name} is valid ${schema.kind} frontmatter with no warnings`, async (t) => {
    const fm = await parseFrontmatter(read(name), fileOf(name));
    const v = validate(schema, fm.data, fileOf(name));
    t.deepEqual(v.warnings, []);
    t.deepEqual(v.extra, {});
  });

  test(`${name} round-trips byte for byte through validate() and formatFrontmatter()`, async (t) => {
    const text = read(name);
    const fm = await parseFrontmatter(text, fileOf(name));
    const v = validate(schema, fm.data, fileOf(name));
    t.is(formatFrontmatter(toFrontmatter(schema, v.data, v.extra), fm.body), text);
  });

  test(`${name} is read by the fast canonical parser, which agrees with the yaml engine`, (t) => {
    const text = read(name);
    const fast = parseFrontmatterFast(text, fileOf(name));
    t.not(fast, undefined);
    t.deepEqual(fast, parseWithEngine(text));
  });

  test(`${name} without any one of its required fields is an error naming the file and the field`, async (t) => {
    const fm = await parseFrontmatter(read(name), fileOf(name));
    const cases = requiredPaths(schema, fm.data);
    t.true(cases.length > 0, "a schema with nothing required");
    for (const { label, drop } of cases) {
      const data = structuredClone(fm.data);
      drop(data);
      const text = formatFrontmatter(toFrontmatter(schema, data), fm.body);
      const parsed = await parseFrontmatter(text, fileOf(name));
      const err = t.throws(() => validate(schema, parsed.data, fileOf(name)), { code: "E_INVALID_FILE" });
      t.is(err?.message, `${fileOf(name)}: field '${label}': missing`);
    }
  });
}

test("ci-env.env parses and round-trips byte for byte", (t) => {
  const text = read("ci-env.env");
  t.is(formatCiEnv(parseCiEnv(text, fileOf("ci-env.env"))), text);
});

test("ci-step.sh is an executable script with a shebang", (t) => {
  const text = read("ci-step.sh");
  t.true(text.startsWith("#!/bin/sh\n"));
  t.not(statSync(DIR + "ci-step.sh").mode & 0o111, 0);
  // Its second line names the step's path in a store; that name must be a step name.
  const path = /^# \.forge\/ci\/steps\/([^:]+):/m.exec(text);
  t.true(path !== null && isCiStepName(path[1]!));
});

test("wiki-page.md has no frontmatter and its title is its first H1", (t) => {
  const text = read("wiki-page.md");
  t.false(text.startsWith("---"));
  t.is(wikiTitle(text), "CI posture");
});

// --- internal ---

/**
 * Every required field of a schema as a way to remove it from `data`: each
 * top-level one, and each required sub-field of the first item of a list
 * of maps.
 */
function requiredPaths(
  schema: EntitySchema,
  data: Record<string, unknown>
): Array<{ label: string; drop: (d: Record<string, unknown>) => void }> {
  const out: Array<{ label: string; drop: (d: Record<string, unknown>) => void }> = [];
  for (const f of schema.fields) {
    if (f.required) out.push({ label: f.name, drop: (d) => delete d[f.name] });
    if (f.type.t !== "maps" || !(data[f.name] as unknown[]).length) continue;
    for (const sub of f.type.fields) {
      if (!sub.required) continue;
      out.push({
        label: `${f.name}[0].${sub.name}`,
        drop: (d) => delete (d[f.name] as Array<Record<string, unknown>>)[0]![sub.name],
      });
    }
  }
  return out;
}
