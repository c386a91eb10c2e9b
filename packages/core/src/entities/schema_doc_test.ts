// spec/schema.md against schema.ts: the doc's field tables must list every
// field of every schema, in write order, with its type and required flag,
// so the doc and the code cannot drift apart.
import test from "ava";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SCHEMAS, type EntitySchema, type FieldType } from "./schema.js";

// Compiled to packages/core/dist/entities/: the repo root is four levels up.
const SPEC = fileURLToPath(new URL("../../../../spec/", import.meta.url));
const doc = existsSync(SPEC + "schema.md") ? readFileSync(SPEC + "schema.md", "utf8") : "";

test("spec/schema.md exists beside spec/fixtures/", (t) => {
  t.true(existsSync(SPEC + "schema.md"), `not found: ${SPEC}schema.md`);
  t.true(existsSync(SPEC + "fixtures"));
});

test("spec/schema.md mentions every field name of every schema in SCHEMAS", (t) => {
  for (const s of Object.values(SCHEMAS)) {
    for (const f of s.fields) {
      t.true(doc.includes(`\`${f.name}\``), `${s.kind}.${f.name}`);
      if (f.type.t === "maps")
        for (const sub of f.type.fields)
          t.true(doc.includes(`\`${f.name}[].${sub.name}\``), `${s.kind}.${f.name}[].${sub.name}`);
    }
  }
});

for (const [kind, schema] of Object.entries(SCHEMAS)) {
  test(`spec/schema.md's ${kind} table lists its fields in write order with type and required flag`, (t) => {
    t.deepEqual(docRows(kind), expectedRows(schema));
  });
}

test("spec/schema.md has a field table only for kinds in SCHEMAS", (t) => {
  const marked = [...doc.matchAll(/^<!-- fields: ([a-z-]+) -->$/gm)].map((m) => m[1]);
  t.deepEqual(marked.sort(), Object.keys(SCHEMAS).sort());
});

test("spec/schema.md's field-order groups are the schema order for issue, pr and task", (t) => {
  const table = doc.slice(doc.indexOf("<!-- field groups -->"));
  for (const kind of ["issue", "pr", "task"]) {
    const row = new RegExp(`^\\| ${kind} \\| (.*) \\|$`, "m").exec(table);
    t.truthy(row, kind);
    const names = [...row![1]!.matchAll(/`([^`]+)`/g)].flatMap((m) => m[1]!.split(" "));
    t.deepEqual(
      names,
      SCHEMAS[kind]!.fields.map((f) => f.name),
      kind
    );
  }
});

test("spec/schema.md names every fixture in spec/fixtures/", (t) => {
  for (const name of readdirSync(SPEC + "fixtures")) t.true(doc.includes(`\`${name}\``), name);
});

// --- internal ---

/** The rows `[field, type, req]` of the table after `<!-- fields: kind -->`. */
function docRows(kind: string): string[][] {
  const lines = doc.split("\n");
  const at = lines.indexOf(`<!-- fields: ${kind} -->`);
  if (at < 0) return [];
  const rows: string[][] = [];
  for (const line of lines.slice(at + 3)) {
    if (!line.startsWith("|")) break;
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim());
    rows.push([cells[0]!.replace(/^`|`$/g, ""), cells[1]!, cells[2]!]);
  }
  return rows;
}

function expectedRows(schema: EntitySchema): string[][] {
  const rows: string[][] = [];
  for (const f of schema.fields) {
    rows.push([f.name, typeText(f.type), f.required ? "yes" : ""]);
    if (f.type.t === "maps")
      for (const sub of f.type.fields)
        rows.push([`${f.name}[].${sub.name}`, typeText(sub.type), sub.required ? "yes" : ""]);
  }
  return rows;
}

function typeText(t: FieldType): string {
  switch (t.t) {
    case "enum":
      return t.values.join("/");
    case "int":
      return t.min === undefined ? "int" : `int ≥ ${t.min}`;
    case "strings":
      return "[string]";
    case "maps":
      return "[map]";
    default:
      return t.t;
  }
}
