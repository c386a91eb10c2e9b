import test from "ava";
import { parseJsonLines, readJsonLines } from "./read_lines.js";
import { LineSplitter, MAX_JSON_LINE_BYTES, textLines } from "./split_lines.js";

/** `bytes` of input in 64 KiB chunks. */
function* chunks(text: string): Generator<Buffer> {
  const b = Buffer.from(text);
  for (let at = 0; at < b.length; at += 65_536) yield b.subarray(at, at + 65_536);
}

async function read(input: Iterable<Buffer>): Promise<Array<{ line: number; ok: boolean; error?: string }>> {
  const out = [];
  for await (const r of readJsonLines(
    (async function* () {
      yield* input;
    })()
  ))
    out.push({ line: r.line, ok: r.value !== undefined, error: r.error?.message });
  return out;
}

/**
 * The bytes and characters the reader's primitives touch while `f` runs: each `Buffer#indexOf` counts what it
 * scanned, each `Buffer.concat`, `Buffer#toString` and `JSON.parse` what it copied or read. A count, not a time: a
 * shared machine's load cannot move it, and a reader that scans or copies the held buffer again for each chunk or
 * line (the quadratic reader this guards against) shows in it. A byte loop written in JavaScript would not.
 */
async function touched(f: () => Promise<unknown>): Promise<number> {
  let n = 0;
  const proto = Buffer.prototype;
  const { indexOf, toString } = proto;
  const { concat } = Buffer;
  const { parse } = JSON;
  proto.indexOf = function (this: Buffer, ...args: Parameters<Buffer["indexOf"]>): number {
    const r = indexOf.apply(this, args);
    const from = typeof args[1] === "number" ? args[1] : 0;
    n += (r < 0 ? this.length : r + 1) - from;
    return r;
  };
  proto.toString = function (this: Buffer, ...args: Parameters<Buffer["toString"]>): string {
    const s = toString.apply(this, args);
    n += s.length;
    return s;
  };
  Buffer.concat = (...args: Parameters<typeof Buffer.concat>): ReturnType<typeof Buffer.concat> => {
    const b = concat(...args);
    n += b.length;
    return b;
  };
  JSON.parse = (text: string, reviver?: Parameters<typeof JSON.parse>[1]): unknown => {
    n += text.length;
    return parse(text, reviver);
  };
  try {
    await f();
  } finally {
    Object.assign(proto, { indexOf, toString });
    Buffer.concat = concat;
    JSON.parse = parse;
  }
  return n;
}

test("LineSplitter: lines cut anywhere across chunks, inside a UTF-8 character too, read whole", (t) => {
  const text = '{"a":"é—ü"}\n\n{"b":2}\nlast';
  const b = Buffer.from(text);
  for (let cut = 0; cut <= b.length; cut++) {
    const s = new LineSplitter();
    const got = [...s.push(b.subarray(0, cut)), ...s.push(b.subarray(cut)), ...s.end()];
    t.deepEqual(got, [
      { line: 1, text: '{"a":"é—ü"}' },
      { line: 2, text: "" },
      { line: 3, text: '{"b":2}' },
      { line: 4, text: "last" },
    ]);
  }
});

test("LineSplitter: a chunk's whole lines read as one text under the cap, one at a time over it", (t) => {
  // Under the cap: the lines between the chunk's first and last newline are decoded at once, then cut.
  const s = new LineSplitter(12);
  t.deepEqual(
    [...s.push(Buffer.from("a\né\n\nü—\nb")), ...s.end()],
    [
      { line: 1, text: "a" },
      { line: 2, text: "é" },
      { line: 3, text: "" },
      { line: 4, text: "ü—" },
      { line: 5, text: "b" },
    ]
  );
  // Over it: each line is measured alone, so only the long one is refused.
  const o = new LineSplitter(10);
  t.deepEqual(
    [...o.push(Buffer.from("ab\n0123456789\nabcdefghijk\nxy\nz")), ...o.end()],
    [
      { line: 1, text: "ab" },
      { line: 2, text: "0123456789" },
      { line: 3, tooLong: true },
      { line: 4, text: "xy" },
      { line: 5, text: "z" },
    ]
  );
});

test("LineSplitter: a line over the cap is one tooLong line, its bytes not kept; the next line reads", (t) => {
  const s = new LineSplitter(10);
  const got = [...s.push(Buffer.from("0123456789")), ...s.push(Buffer.from("ABC\nok\n0123456789x")), ...s.end()];
  t.deepEqual(got, [
    { line: 1, tooLong: true },
    { line: 2, text: "ok" },
    { line: 3, tooLong: true },
  ]);
  t.deepEqual(
    [...textLines("0123456789\n01234567890\nééééé\néééééé", 10)],
    [
      { line: 1, text: "0123456789" },
      { line: 2, tooLong: true },
      { line: 3, text: "ééééé" },
      { line: 4, tooLong: true },
    ]
  );
});

test("readJsonLines(): a 20 MB line is one error naming the limit, quickly, and the lines after it read", async (t) => {
  const long = `{"a":"${"x".repeat(20_000_000)}"}`;
  const t0 = Date.now();
  const got = await read(chunks(`{"a":1}\n${long}\n{"a":2}\n`));
  t.deepEqual(got, [
    { line: 1, ok: true, error: undefined },
    { line: 2, ok: false, error: "stdin line 2: longer than the 16 MiB line limit" },
    { line: 3, ok: true, error: undefined },
  ]);
  t.true(Date.now() - t0 < 10_000);
  t.deepEqual(
    parseJsonLines(`${long}\n{}`).map((r) => r.error?.message ?? "ok"),
    ["stdin line 1: longer than the 16 MiB line limit", "ok"]
  );
  t.is(MAX_JSON_LINE_BYTES, 16 * 1024 * 1024);
});

// Serial: alone, so no other test of this file runs inside the count.
test.serial(
  "readJsonLines() is linear: 8× the input (one long line, 20k short lines) touches 8× the bytes, not 64×",
  async (t) => {
    const line = (n: number): string => `{"a":"${"x".repeat(n)}"}\n`;
    const short = '{"kind":"node","claim_id":"c","passes":3,"fails":0}\n';
    for (const [name, small, big] of [
      ["one long line", line(2_000_000), line(16_000_000)],
      ["short lines", short.repeat(20_000), short.repeat(160_000)],
    ] as const) {
      const [one, eight] = [[...chunks(small)], [...chunks(big)]];
      const a = await touched(() => read(one));
      const b = await touched(() => read(eight));
      // Each byte is scanned once, copied once, decoded once and parsed once: 4× the input; 8× the input is 8× that.
      t.true(a <= 5 * small.length, `${name}: ${a} touched for ${small.length} bytes`);
      t.true(b <= 9 * a, `${name}: ${a} touched for 1×, ${b} for 8×`);
    }
  }
);
