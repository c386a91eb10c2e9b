import test from "ava";
import { parseJsonLines, readJsonLines } from "./read_lines.js";

async function all(chunks: string[]): Promise<Array<{ line: number; value?: unknown; error?: string }>> {
  const out = [];
  for await (const r of readJsonLines(
    (async function* () {
      yield* chunks;
    })()
  ))
    out.push({ line: r.line, value: r.value, error: r.error?.message });
  return out;
}

test("readJsonLines() reads JSON lines, skipping blank ones", async (t) => {
  t.deepEqual(await all(['{"number":1}\n\n', '{"number":2}\n']), [
    { line: 1, value: { number: 1 }, error: undefined },
    { line: 3, value: { number: 2 }, error: undefined },
  ]);
});

test("readJsonLines() reads one JSON array of objects (gh's output), compact or indented, across chunks", async (t) => {
  t.deepEqual(
    (await all(['[{"number":1},', '{"number":2}]\n'])).map((r) => r.value),
    [{ number: 1 }, { number: 2 }]
  );
  t.deepEqual(
    (await all(['  [\n  {\n    "number": 3\n  }\n]\n'])).map((r) => r.value),
    [{ number: 3 }]
  );
  t.deepEqual(await all(["[]\n"]), []);
});

test("readJsonLines() reports a bad array, and a non-object item by its place", async (t) => {
  t.regex((await all(["[1,"]))[0]!.error!, /not a JSON array/);
  t.deepEqual(
    (await all(['[{"number":1}, 7]'])).map((r) => r.error ?? "ok"),
    ["ok", "stdin item 2: not a JSON object"]
  );
});

test(
  "readJsonLines() marks idle the last line of what the input has given so far, blank lines aside, and the last " +
    "line at the end",
  async (t) => {
    const idle: Array<[number, boolean]> = [];
    const chunks = ['{"a":1}\n{"a":2}\n\n', '{"a":3', '}\n{"a":4}\n', "nope\n", '{"a":5}'];
    for await (const r of readJsonLines(
      (async function* () {
        yield* chunks;
      })()
    ))
      idle.push([r.line, r.idle === true]);
    t.deepEqual(idle, [
      [1, false],
      [2, true],
      [4, false],
      [5, true],
      [6, true],
      [7, true],
    ]);
  }
);

test("parseJsonLines() reads text in hand as readJsonLines reads it as a stream", async (t) => {
  const text = '{"a":1}\n\n  \nx\n{"b":2}';
  const streamed = await all([text]);
  const inHand = parseJsonLines(text).map((r) => ({ line: r.line, value: r.value, error: r.error?.message }));
  t.deepEqual(inHand, streamed);
  t.deepEqual(
    inHand.map((r) => r.line),
    [1, 4, 5]
  );
});

test("parseJsonLines() takes one JSON array as readJsonLines does (gh's shape): its items in order", async (t) => {
  for (const text of ['[{"a":1},{"b":2}]\n', '\n  [\n  {"a": 1},\n  {"b": 2}\n]\n', "[]", '[{"a":1},3]']) {
    const inHand = parseJsonLines(text).map((r) => ({ line: r.line, value: r.value, error: r.error?.message }));
    t.deepEqual(inHand, await all([text]), text);
  }
  t.deepEqual(
    parseJsonLines('[{"a":1},{"b":2}]').map((r) => r.value),
    [{ a: 1 }, { b: 2 }]
  );
  t.is(parseJsonLines('[{"a":1},3]')[1]!.error?.message, "stdin item 2: not a JSON object");
  t.is(parseJsonLines("[1,").at(0)!.error?.message, "stdin: not a JSON array of objects");
});
