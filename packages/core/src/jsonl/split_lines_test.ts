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
 * The fastest of five runs of each, in ms, the two taken in turn (a stretch of load on a shared machine weighs on
 * both, not on one).
 */
async function fastestPair(f: () => Promise<unknown>, g: () => Promise<unknown>): Promise<[number, number]> {
  let a = Infinity;
  let b = Infinity;
  const time = async (h: () => Promise<unknown>): Promise<number> => {
    const t0 = process.hrtime.bigint();
    await h();
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  for (let i = 0; i < 5; i++) {
    a = Math.min(a, await time(f));
    b = Math.min(b, await time(g));
  }
  return [a, b];
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

// Serial: run alone, not beside this file's other tests (their work would be timed with it).
test.serial(
  "readJsonLines() is linear: 8× the input (one long line, 20k short lines) costs far below 64×",
  async (t) => {
    // Linear is 8×; quadratic (the buffer scanned or copied again for each chunk or line) is 64×. 32× of at least 3 ms
    // leaves a shared machine's noise room on both sides (two suites at once measured 29× when the two sizes were
    // timed one after the other, not in turn).
    const line = (n: number): string => `{"a":"${"x".repeat(n)}"}\n`;
    const oneLine1 = [...chunks(line(2_000_000))];
    const oneLine8 = [...chunks(line(16_000_000))];
    const [a, b] = await fastestPair(
      () => read(oneLine1),
      () => read(oneLine8)
    );
    t.true(b < 32 * Math.max(a, 3), `2 MB: ${a} ms, 16 MB: ${b} ms`);
    const short = '{"kind":"node","claim_id":"c","passes":3,"fails":0}\n';
    const many1 = [...chunks(short.repeat(20_000))];
    const many8 = [...chunks(short.repeat(160_000))];
    const [c, d] = await fastestPair(
      () => read(many1),
      () => read(many8)
    );
    t.true(d < 32 * Math.max(c, 3), `20k lines: ${c} ms, 160k lines: ${d} ms`);
  }
);
