import test from "ava";
import { matchSearch, type SearchItem } from "../search/match.js";
import { parseSearch } from "../search/query.js";
import { rawTextSearch, searchFilter } from "./issue_list_cache.js";

// Pieces of a title or body: escapes JSON writes (newline, quote, backslash, `\u0001`), the letters they are made of,
// bytes past ASCII (the Kelvin sign lowercases to `k`), and cases.
const PIECES = ["a", "C", "\n", "\\", '"', "\u212a", "é", "\u0001", "u0", "n", "b", " "];
const QUERIES = [
  "a",
  "A",
  "nb",
  "n",
  "u0",
  "01",
  "b",
  "k",
  "\u212a",
  '"c a"',
  '"a b"',
  "a b",
  "-n",
  "a -b",
  "a in:title",
  "A in:body",
  "a in:title,body",
  "a -in:title",
  "in:comments a",
  "in:title",
  "\\",
  '"\\"\\""',
];

/** The bodies and titles: every string of up to three pieces. */
function texts(): string[] {
  const out = [""];
  for (const x of PIECES) {
    out.push(x);
    for (const y of PIECES) {
      out.push(x + y);
      for (const z of PIECES) out.push(x + y + z);
    }
  }
  return out;
}

/** A cached payload as the list keeps it (record cache): body in the first part, title in the second, links after. */
function payload(title: string, body: string): { b: Buffer; sep: number; end: number } {
  const first = `"assignees":[],"author":{"login":"ann"},"body":${JSON.stringify(body)},"labels":[]`;
  const second = `"state":"OPEN","title":${JSON.stringify(title)},"updatedAt":"2026-01-01T00:00:00Z"`;
  // The lines after it in the buffer hold the same members: nothing past `end` is read.
  const b = Buffer.from(`${first}\x1f${second}\x1f\n"body":"a n b","title":"a n b"\n`);
  const sep = b.indexOf(0x1f);
  return { b, sep, end: b.indexOf(0x1f, sep + 1) };
}

function item(title: string, body: string): SearchItem {
  const empty = { state: "open", author: "", assignees: [], labels: [], createdAt: "", updatedAt: "" } as const;
  return { kind: "issue", ...empty, title, body };
}

test("a text search's answer from a cached payload's bytes is matchSearch's on its title and body", (t) => {
  const all = texts();
  const titles = ["", "a", "C\\n", "\u212a", 'x"a'];
  let fromBytes = 0;
  let checked = 0;
  for (const text of QUERIES) {
    const q = parseSearch(text);
    const raw = rawTextSearch(q);
    const decide = searchFilter(q, {}).decide!;
    for (const title of titles) {
      for (const body of all) {
        const { b, sep, end } = payload(title, body);
        const want = matchSearch(q, item(title, body));
        const got = raw?.(b, 0, sep, end);
        if (got !== undefined) {
          fromBytes++;
          if (got !== want) t.fail(`${JSON.stringify(text)} over ${JSON.stringify([title, body])}: bytes said ${got}`);
        }
        if (decide(b, 0, sep, end) !== want) t.fail(`${JSON.stringify(text)} over ${JSON.stringify([title, body])}`);
        checked++;
      }
    }
  }
  // The bytes answer every ASCII title and body of a plain-word query (most of them), the parse the rest.
  t.true(fromBytes > checked / 3, `${fromBytes} of ${checked} from the bytes`);
  t.is(rawTextSearch(parseSearch("\\")), undefined, "a backslash is not a plain word");
});

test("a word that only an escape's letters spell is not in the text", (t) => {
  const q = parseSearch("nb");
  const raw = rawTextSearch(q)!;
  const at = (title: string, body: string): boolean | undefined => {
    const { b, sep, end } = payload(title, body);
    return raw(b, 0, sep, end);
  };
  t.false(at("", "\nb"), "`\\nb`");
  t.true(at("", "\\nb"), "a backslash, then nb: `\\\\nb`");
  t.false(at("", "\\\nb"), "a backslash, then a newline: `\\\\\\nb`");
  t.false(at("", "a\nb a\nb"), "every place is an escape's");
  t.true(at("", "a\nb nb"), "the second place is not");
  t.false(rawTextSearch(parseSearch("01"))!(...args("\u0001")), "`\\u0001`'s digits");
  t.true(rawTextSearch(parseSearch("01"))!(...args("\u000101")), "after `\\u0001`");
  t.is(at("", "é nb"), undefined, "past ASCII: the text is parsed");
});

function args(body: string): [Buffer, number, number, number] {
  const { b, sep, end } = payload("", body);
  return [b, 0, sep, end];
}
