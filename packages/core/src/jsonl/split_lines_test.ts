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

/** The fastest of five runs, in ms. */
async function fastest(f: () => Promise<unknown> | unknown): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const t0 = process.hrtime.bigint();
    await f();
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return best;
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
  "readJsonLines() is linear: 8× the input (one long line, 10k short lines) costs far below 64×",
  async (t) => {
    const line = (n: number): string => `{"a":"${"x".repeat(n)}"}\n`;
    const oneLine1 = [...chunks(line(2_000_000))];
    const oneLine8 = [...chunks(line(16_000_000))];
    const a = await fastest(() => read(oneLine1));
    const b = await fastest(() => read(oneLine8));
    // Quadratic is 64×; linear is 8× (a generous 24× for a shared machine's noise).
    t.true(b < 24 * Math.max(a, 5), `2 MB: ${a} ms, 16 MB: ${b} ms`);
    const short = '{"kind":"node","claim_id":"c","passes":3,"fails":0}\n';
    const many1 = [...chunks(short.repeat(20_000))];
    const many8 = [...chunks(short.repeat(160_000))];
    const c = await fastest(() => read(many1));
    const d = await fastest(() => read(many8));
    t.true(d < 24 * Math.max(c, 5), `20k lines: ${c} ms, 160k lines: ${d} ms`);
  }
);
