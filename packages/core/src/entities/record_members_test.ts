import test from "ava";
import { rng as prng } from "@forge/kernel/testing";
import { MemberPicker, valueEnd } from "./record_members.js";

// Pieces of strings: what JSON escapes (quote, backslash, newline, U+0001), runs of backslashes before a quote, the
// record cache's separator, brackets and braces, and bytes past ASCII.
const PIECES = ['"', "\\", "\\\\", '\\"', "\n", "\u0001", "\u001f", "{", "}", "[", "]", ",", ":", "é", "✓", "a", " "];

function value(r: () => number, depth: number): unknown {
  const k = Math.floor(r() * (depth > 2 ? 6 : 8));
  if (k === 0) return null;
  if (k === 1) return r() < 0.5;
  if (k === 2) return Math.floor(r() * 2000) - 1000 + (r() < 0.3 ? 0.25 : 0);
  if (k <= 5) {
    let s = "";
    for (let n = Math.floor(r() * 6); n > 0; n--) s += PIECES[Math.floor(r() * PIECES.length)];
    return s;
  }
  if (k === 6) return Array.from({ length: Math.floor(r() * 4) }, () => value(r, depth + 1));
  const o: Record<string, unknown> = {};
  for (let n = Math.floor(r() * 4); n > 0; n--) o[`k${Math.floor(r() * 5)}`] = value(r, depth + 1);
  return o;
}

/** The JSON text of some fields of a record, without the braces (as issue_list_cache.ts's `members`). */
function members(json: Record<string, unknown>, fields: readonly string[]): string {
  const o: Record<string, unknown> = {};
  for (const f of fields) o[f] = json[f];
  return JSON.stringify(o).slice(1, -1);
}

const BEFORE = ["assignees", "author", "body", "labels", "milestone"];
const AFTER = ["state", "title", "updatedAt"];

test("valueEnd() finds the end of every value JSON.stringify writes, and no end in a cut one", (t) => {
  const r = prng(7);
  for (let n = 0; n < 3000; n++) {
    const text = JSON.stringify(value(r, 0));
    const b = Buffer.from(`${text},`);
    t.is(valueEnd(b, 0, b.length), b.length - 1, text);
    if (text.length > 1 && /^["[{]/.test(text)) t.is(valueEnd(b, 0, b.length - 2), -1, `cut: ${text}`);
  }
  t.is(valueEnd(Buffer.from(',"a"'), 0, 4), -1, "no value");
  t.is(valueEnd(Buffer.from('1"'), 0, 2), -1, "a quote in a number");
});

test("a picked record is the members JSON.stringify writes of the fields asked for", (t) => {
  const r = prng(11);
  for (let n = 0; n < 2000; n++) {
    // A record whose fields may be left out (undefined), its two parts as the cache keeps them.
    const json: Record<string, unknown> = {};
    for (const f of [...BEFORE, ...AFTER]) if (r() < 0.85) json[f] = value(r, 0);
    json.body ??= "b"; // part one is never empty in the cache (its caller refuses that)
    const buf = Buffer.from(`x${members(json, BEFORE)}\x1f${members(json, AFTER)}y`);
    const sep = buf.indexOf(0x1f);
    const fields = [...BEFORE, ...AFTER].filter(() => r() < 0.4);
    const p = new MemberPicker(BEFORE, AFTER, fields);
    t.true(p.scan(buf, 1, sep, buf.length - 1));
    const out = Buffer.alloc(p.bytes + 2);
    let at = p.copy(buf, 0, out, 0);
    const one = out.toString("utf8", 0, at);
    at = p.copy(buf, 1, out, 0);
    const two = out.toString("utf8", 0, at);
    t.is(
      one,
      members(
        json,
        fields.filter((f) => BEFORE.includes(f))
      )
    );
    t.is(
      two,
      members(
        json,
        fields.filter((f) => AFTER.includes(f))
      )
    );
    // Room for the members and a comma after each.
    const all = [one, two].filter((s) => s !== "").join(",");
    t.is(p.bytes, all === "" ? 0 : Buffer.byteLength(all) + 1);
  }
});

test("a part that is not the layout's members, in order, as JSON writes them, is refused", (t) => {
  const p = new MemberPicker(["a", "b"], ["c"], ["a", "c"]);
  const scan = (one: string, two: string): boolean => {
    const b = Buffer.from(`${one}\x1f${two}`);
    return p.scan(b, 0, one.length, b.length);
  };
  t.true(scan('"a":1,"b":"x"', '"c":[1,{"d":"]"}]'));
  t.true(scan('"b":2', ""), "a member left out, an empty part two");
  t.false(scan('"b":2,"a":1', '"c":1'), "out of order");
  t.false(scan('"a":1,"z":1', '"c":1'), "a key not in the layout");
  t.false(scan('"a":1,', '"c":1'), "a trailing comma");
  t.false(scan('"a":1', '"c":"open'), "a string that does not close");
  t.false(scan('"a":{"x":1', '"c":1'), "an object that does not close");
  t.false(scan('"a" 1', '"c":1'), "no colon");
  t.false(scan("a:1", '"c":1'), "an unquoted key");
  t.false(scan('"a":1 "b":2', '"c":1'), "no comma");
  t.false(scan('"a":', '"c":1'), "no value");
});
