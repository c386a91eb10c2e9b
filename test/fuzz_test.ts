/**
 * Seeded frontmatter fuzz (issue 11): valid issue files mutated at random —
 * unknown fields of every YAML type (mappings, decimals, keys with spaces,
 * block scalars, tags, anchors, complex keys), broken known fields, deep
 * nesting, flow bombs, odd fences, CRLF, random byte edits. For each input:
 *
 * - the reader gives a record or one `InvalidFileError` line naming the
 *   file, never another error, never a Node warning, never the file's
 *   content (a token planted in values never appears in a message);
 * - when it reads, an edit either writes a file that reads back with the
 *   new title and every unknown field unchanged, or is refused naming the
 *   file and the field, leaving the file as it was.
 *
 * `FORGE_FUZZ_N` inputs (default 2,000; `pnpm fuzz` runs 100,000), seed
 * `FORGE_FUZZ_SEED` (default 1).
 */
import test from "ava";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { entityFile, ISSUE, ISSUES, loadEntity, storeAt, updateIssue, type Store } from "@forge/core";
import { int, rng, type Rng } from "@forge/kernel/testing";

const N = Number(process.env.FORGE_FUZZ_N ?? "2000");
const SEED = Number(process.env.FORGE_FUZZ_SEED ?? "1");
const ID = "0b8c2a8e-6f43-4b8a-9a55-3a4f0f7b2d11";
const TOKEN = "Zq9SECRETq9Z";

const pick = <T>(r: Rng, xs: readonly T[]): T => xs[int(r, 0, xs.length - 1)]!;

const SCALARS = [
  "plain",
  `"${TOKEN} quoted"`,
  `'${TOKEN} single'`,
  "12",
  "-7",
  "1.50",
  "3e5",
  "0x1F",
  "0o17",
  ".inf",
  "-.Inf",
  ".nan",
  "true",
  "False",
  "yes",
  "No",
  "on",
  "~",
  "null",
  "",
  "2026-01-02",
  "2026-01-02T03:04:05Z",
  "!!str 12",
  "!!int 3",
  "!custom x",
  `${TOKEN} words here`,
  "'it''s'",
  '"tab\\tnew\\nline"',
  '"\\u00e9t\\u00e9"',
  "été",
  "日本語",
  "@at",
  "`tick",
  "%pct",
  "a: b",
  "- dash",
  "[1, 2]",
  "{a: 1}",
  "&anc x",
  "*alias",
];

function scalar(r: Rng): string {
  return pick(r, SCALARS);
}

/** A random YAML value, as the text after `key:` (block forms start on the next line, indented by `ind`). */
function value(r: Rng, ind: number, depth: number): string {
  const pad = " ".repeat(ind + 2);
  switch (depth > 3 ? 0 : int(r, 0, 7)) {
    case 1:
      return ` [${Array.from({ length: int(r, 0, 3) }, () => scalar(r).replace(/^[-[{&*!]/, "x")).join(", ")}]`;
    case 2:
      return ` {${Array.from({ length: int(r, 0, 3) }, (_, i) => `k${i}: ${int(r, 0, 99)}`).join(", ")}}`;
    case 3:
      return "\n" + Array.from({ length: int(r, 1, 3) }, () => `${pad}- ${scalar(r)}`).join("\n");
    case 4:
      return (
        "\n" +
        Array.from(
          { length: int(r, 1, 3) },
          (_, i) => `${pad}${pick(r, ["k", '"a key"', "'q k'", "x y"])}${i}:${value(r, ind + 2, depth + 1)}`
        ).join("\n")
      );
    case 5:
      return ` ${pick(r, ["|", ">", "|-", ">+"])}\n${pad}line one ${TOKEN}\n${pad}  line two`;
    case 6:
      return ` &a${int(r, 0, 9)} ${scalar(r)}`;
    case 7:
      return " *a" + int(r, 0, 9);
    default:
      return " " + scalar(r);
  }
}

function baseText(): string[] {
  return [
    "---",
    "title: A title",
    `id: ${ID}`,
    "state: open",
    "author: alice",
    'createdAt: "2026-01-02T03:04:05Z"',
    "labels:",
    "  - bug",
    "assignees:",
    "---",
    `Body ${TOKEN}.`,
    "",
  ];
}

/** One fuzzed file. */
function input(r: Rng): string {
  const lines = baseText();
  const edits = int(r, 1, 3);
  for (let e = 0; e < edits; e++) {
    const at = int(r, 1, Math.max(1, lines.indexOf("---", 1)));
    switch (int(r, 0, 15)) {
      case 11:
      case 12:
      case 13:
      case 14:
      case 0:
      case 1:
      case 2: {
        const key = pick(r, [
          "extra",
          "meta",
          '"my key"',
          "'with space'",
          "x y",
          "weight",
          "n1",
          "? [a, b]",
          "? {a: 1}",
          "<<",
          "__proto__",
          "~",
          "12",
          "dup",
        ]);
        lines.splice(at, 0, ...`${key}:${value(r, 0, 0)}`.split("\n"));
        break;
      }
      case 3: {
        const known = pick(r, [
          "title",
          "id",
          "state",
          "author",
          "createdAt",
          "labels",
          "assignees",
          "closedAt",
          "milestone",
        ]);
        const i = lines.findIndex((l) => l.startsWith(known + ":"));
        const text = `${known}:${value(r, 0, 1)}`.split("\n");
        if (i >= 0) lines.splice(i, 1, ...text);
        else lines.splice(at, 0, ...text);
        break;
      }
      case 4:
        lines.splice(at, 0, `deep:\n${"- ".repeat(int(r, 0, 3) ? int(r, 1, 40) : int(r, 1, 4000))}x`);
        break;
      case 5:
        lines.splice(at, 0, `flow: ${"[".repeat(int(r, 0, 3) ? int(r, 1, 40) : int(r, 1, 5000))}`);
        break;
      case 6:
        if (int(r, 0, 2) === 0)
          lines[0] = pick(r, [
            "---js",
            "--- yaml",
            "---yaml",
            "---json",
            `---${TOKEN}`,
            "--",
            "---\r",
            " ---",
            "---coffee",
          ]);
        break;
      case 7: {
        const i = int(r, 0, lines.length - 1);
        const l = lines[i]!;
        const p = int(r, 0, l.length);
        lines[i] =
          l.slice(0, p) +
          pick(r, [
            ":",
            "#",
            "'",
            '"',
            "\t",
            "{",
            "}",
            "[",
            "]",
            "&",
            "*",
            "!",
            "|",
            ">",
            "%",
            "@",
            "\u0000",
            "\ufeff",
            " ",
          ]) +
          l.slice(p);
        break;
      }
      case 8:
        lines.splice(int(r, 0, lines.length - 1), 1);
        break;
      case 9:
        lines.splice(at, 0, lines[int(r, 1, lines.length - 1)]!);
        break;
      case 10:
        lines.splice(
          at,
          0,
          `ind${int(r, 0, 9)}:`,
          ...Array.from({ length: int(r, 1, 60) }, (_, k) => `${" ".repeat(k + 1)}k${k}:`)
        );
        break;
      default:
        lines.splice(at, 0, `many: [${Array.from({ length: int(r, 1, 200) }, (_, k) => k).join(", ")}]`);
    }
  }
  const text = lines.join("\n");
  return int(r, 0, 19) === 0 ? text.replace(/\n/g, "\r\n") : text;
}

function tempStore(): Store {
  const base = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();
  const dir = join(mkdtempSync(join(base, "forge-fuzz-")), ".forge");
  mkdirSync(join(dir, "issues", ID), { recursive: true });
  return storeAt(dir);
}

test(
  `frontmatter fuzz: ${N} seeded inputs read cleanly or fail with one line; edits keep unknown fields or refuse ` +
    `by name`,
  async (t) => {
    const r = rng(SEED);
    const store = tempStore();
    const path = entityFile(store, ISSUES, ID);
    const file = `.forge/issues/${ID}/issue.md`;
    let warnings = 0;
    const onWarning = (): void => void warnings++;
    process.on("warning", onWarning);
    const tally = { read: 0, refused: 0, edited: 0, editRefused: 0 };
    const failures: string[] = [];
    const fail = (i: number, what: string): void => void (failures.length < 10 && failures.push(`input ${i}: ${what}`));
    try {
      for (let i = 0; i < N; i++) {
        const text = input(r);
        writeFileSync(path, text);
        let e;
        try {
          e = await loadEntity(store, ISSUES, ISSUE, { id: ID, archived: false });
        } catch (err) {
          const m = (err as Error).message;
          if ((err as { code?: string }).code !== "E_INVALID_FILE")
            fail(i, `read threw ${(err as Error).name}: ${m.slice(0, 200)}`);
          else if (!m.startsWith(file + ": ") || m.includes("\n"))
            fail(i, `read error not one line naming the file: ${m.slice(0, 200)}`);
          else if (m.includes(TOKEN)) fail(i, `read error quotes the file: ${m.slice(0, 200)}`);
          tally.refused++;
          continue;
        }
        tally.read++;
        for (const w of e.warnings) if (w.includes(TOKEN)) fail(i, "a warning quotes the file");
        const title = `edited ${i}`;
        try {
          updateIssue(e, (d) => {
            d.title = title;
          });
        } catch (err) {
          const m = (err as Error).message;
          if ((err as { code?: string }).code !== "E_INVALID_FILE" || !m.startsWith(file + ": field '"))
            fail(i, `edit threw ${(err as Error).name}: ${m.slice(0, 200)}`);
          else if (m.includes(TOKEN)) fail(i, `edit error quotes the file: ${m.slice(0, 200)}`);
          if (readFileSync(path, "utf8") !== text) fail(i, "a refused edit changed the file");
          tally.editRefused++;
          continue;
        }
        try {
          const back = await loadEntity(store, ISSUES, ISSUE, { id: ID, archived: false });
          if (back.data.title !== title) fail(i, "the edit did not land");
          if (!isDeepStrictEqual(back.extra, e.extra))
            fail(
              i,
              `unknown fields changed: ${JSON.stringify(e.extra).slice(0, 200)} → ` +
                `${JSON.stringify(back.extra).slice(0, 200)}` +
                `${process.env.FORGE_FUZZ_SHOW ? "\n" + text + "\n=>\n" + readFileSync(path, "utf8") : ""}`
            );
          const { title: _a, ...rest } = back.data;
          const { title: _b, ...was } = e.data;
          if (!isDeepStrictEqual(rest, was)) fail(i, "known fields changed");
        } catch (err) {
          fail(i, `the edited file does not read back: ${(err as Error).message.slice(0, 200)}`);
        }
        tally.edited++;
      }
    } finally {
      process.off("warning", onWarning);
      rmSync(join(store.dir, ".."), { recursive: true, force: true });
    }
    t.log(
      `seed ${SEED}: ${tally.read} read (${tally.edited} edited, ${tally.editRefused} edits refused by name), ` +
        `${tally.refused} refused`
    );
    t.deepEqual(failures, []);
    t.is(warnings, 0, "no Node warning");
    t.true(
      tally.read > N / 10 && tally.refused > N / 10 && tally.editRefused > 0,
      "the generator reaches every outcome"
    );
  }
);
