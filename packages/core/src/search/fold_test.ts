import test from "ava";
import { foldedMember, foldedName, foldedString, sameName } from "./fold.js";

const json = (s: string): Buffer => Buffer.from(JSON.stringify(s));

test("sameName() ignores case as toLowerCase does, not more", (t) => {
  t.true(sameName("Bug", "bUG"));
  t.true(sameName("\u212a", "k")); // the Kelvin sign lowercases to k
  t.true(sameName("ÜNÏCODE", "ünïcode"));
  t.false(sameName("bug", "bugs"));
  t.false(sameName("ss", "ß"));
});

test("foldedName() keeps a name without a letter as its bytes", (t) => {
  t.deepEqual([foldedName("1.0-2").exact, foldedName("V1").exact, foldedName("ü").exact], [true, false, false]);
  t.is(foldedName('Say "HI"').text.toString(), '"say \\"hi\\""');
});

test("foldedString() reads a JSON string's bytes as sameName compares it", (t) => {
  const at = (text: string, name: string): boolean | undefined => foldedString(json(text), 0, foldedName(name));
  t.true(at("BUG", "bug"));
  t.true(at("bug", "BuG"));
  t.false(at("bugs", "bug"));
  t.false(at("bu", "bug"));
  t.true(at('Say "HI"\\', 'say "hi"\\'));
  t.true(at("A\u0001B\n", "a\u0001b\n"));
  t.false(at("a\\b", "a\\c"));
  // Past ASCII: the lowercased name's own bytes say yes; any other cannot tell.
  t.true(at("ünïcode", "ÜNÏCODE"));
  t.is(at("ÜNÏCODE", "ünïcode"), undefined);
  t.is(at("\u212a", "k"), undefined);
  t.false(at("k", "ü"));
  // No string there, or one that does not end before the limit.
  t.is(foldedString(Buffer.from("null"), 0, foldedName("null")), undefined);
  t.is(foldedString(json("bug"), 0, foldedName("bug"), 4), undefined);
});

test("foldedString() is never wrong: a property over names of awkward characters", (t) => {
  const chars = ["a", "B", "k", "K", "\u212a", "ß", "S", "İ", "i", "ü", "Ü", '"', "\\", "\n", "\u0001", " ", "1", "-"];
  let seed = 7;
  const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n) >>> 0;
  const word = (): string => Array.from({ length: 1 + rand(3) }, () => chars[rand(chars.length)]).join("");
  let told = 0;
  for (let i = 0; i < 20_000; i++) {
    const [a, b] = [word(), rand(3) === 0 ? "" : word()];
    const name = b === "" ? a.toUpperCase() : b;
    const r = foldedString(json(a), 0, foldedName(name));
    if (r !== undefined) {
      told++;
      if (r !== sameName(a, name)) t.fail(`${JSON.stringify(a)} vs ${JSON.stringify(name)}: ${r}`);
    } else if (/^[\x00-\x7f]*$/.test(a)) t.fail(`an ASCII string cannot tell: ${JSON.stringify(a)}`);
  }
  t.true(told > 10_000);
});

test("foldedMember() finds the name in any member of that key, or says it cannot tell", (t) => {
  const b = Buffer.from('[{"name":"UI"},{"name":"Bug"},{"name":"\u212a"}]');
  const key = Buffer.from('"name":');
  t.true(foldedMember(b, 0, b.length, key, foldedName("bug")));
  t.true(foldedMember(b, 0, b.length, key, foldedName("ui")));
  t.is(foldedMember(b, 0, b.length, key, foldedName("k")), undefined);
  t.false(foldedMember(Buffer.from('[{"name":"UI"}]'), 0, 15, key, foldedName("bug")));
  // Only within [from, to).
  t.false(foldedMember(b, 0, 14, key, foldedName("bug")));
});
