import test from "ava";
import { PassThrough, Writable } from "node:stream";
import type { Io } from "./io.js";
import { emit, Out, parseJsonFields } from "./output.js";

function io(stdout: NodeJS.WritableStream & { isTTY?: boolean }, env: Record<string, string> = {}): Io {
  return { stdout, stderr: new PassThrough(), stdin: new PassThrough(), env, cwd: "/" };
}

test("Out delivers every byte to a slow reader (back-pressure)", async (t) => {
  const got: Buffer[] = [];
  const slow = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _enc, cb) {
      got.push(chunk);
      setTimeout(cb, 1);
    },
  });
  const out = new Out(slow);
  const line = JSON.stringify({ n: "x".repeat(100) }) + "\n";
  for (let i = 0; i < 5000; i++) await out.write(line);
  await out.flush();
  await new Promise<void>((r) => slow.end(r));
  t.is(Buffer.concat(got).length, line.length * 5000);
});

/** A stream that keeps each chunk written to it, as written. */
function collecting(): { sink: Writable; got: Buffer[] } {
  const got: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      got.push(Buffer.from(chunk));
      cb();
    },
  });
  return { sink, got };
}

test("Out.writeBytes() writes bytes unchanged, after the queued text", async (t) => {
  const { sink, got } = collecting();
  const out = new Out(sink);
  await out.write("head\n");
  await out.writeBytes(Buffer.from([0xe9, 0x0a, 0xff, 0x00]));
  await out.flush();
  t.deepEqual(Buffer.concat(got), Buffer.concat([Buffer.from("head\n"), Buffer.from([0xe9, 0x0a, 0xff, 0x00])]));
});

test("Out sends the first text at once, then about 4 KiB, then twice as much each time, up to 64 KiB", async (t) => {
  const { sink, got } = collecting();
  const out = new Out(sink);
  const line = `${"x".repeat(99)}\n`;
  await out.write(line);
  t.deepEqual(
    got.map((b) => b.length),
    [100],
    "the first line, before any flush"
  );
  for (let i = 0; i < 2000; i++) await out.write(line);
  await out.flush();
  t.is(Buffer.concat(got).toString(), line.repeat(2001));
  t.deepEqual(
    got.slice(0, 7).map((b) => b.length),
    [100, 4100, 8200, 16400, 32800, 65600, 65600]
  );
});

test("Out stops quietly when the reader goes away (EPIPE)", async (t) => {
  const gone = new Writable({
    write(_c, _e, cb) {
      const err = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
      cb(err);
    },
  });
  const out = new Out(gone);
  for (let i = 0; i < 100; i++) await out.write("x".repeat(70000));
  await out.flush();
  t.true(out.closed);
});

test("emit() writes one compact JSON object per line, keys sorted, restricted to the asked fields", async (t) => {
  const sink = new PassThrough();
  let text = "";
  sink.on("data", (d: Buffer) => (text += d.toString()));
  const recs = [
    { title: "a", number: 1, state: "OPEN" },
    { title: "b", number: 2, state: "CLOSED" },
  ];
  await emit(io(sink), new Out(sink), recs, { json: { fields: ["title", "number"] } });
  t.is(text, '{"number":1,"title":"a"}\n{"number":2,"title":"b"}\n');
});

test("FORGE_JSON=array: one JSON array per list as gh prints it; a single view stays one object", async (t) => {
  const recs = [
    { title: "a", number: 1 },
    { title: "b", number: 2 },
  ];
  const print = async (r: object[], env: Record<string, string>, single = false): Promise<string> => {
    const sink = new PassThrough();
    let text = "";
    sink.on("data", (d: Buffer) => (text += d.toString()));
    await emit(io(sink, env), new Out(sink), r, { json: { fields: ["title", "number"] }, single });
    return text;
  };
  t.is(await print(recs, { FORGE_JSON: "array" }), '[{"number":1,"title":"a"},{"number":2,"title":"b"}]\n');
  t.is(await print([], { FORGE_JSON: "array" }), "[]\n");
  t.is(await print(recs.slice(0, 1), { FORGE_JSON: "array" }, true), '{"number":1,"title":"a"}\n');
  t.is(await print(recs, { FORGE_JSON: "lines" }), '{"number":1,"title":"a"}\n{"number":2,"title":"b"}\n');
  await t.throwsAsync(print(recs, { FORGE_JSON: "arrays" }), {
    message: "FORGE_JSON: unknown mode 'arrays'; expected lines or array",
  });
});

test("emit() renders tab-separated rows off a TTY and aligned columns on one", async (t) => {
  for (const tty of [false, true]) {
    const sink = Object.assign(new PassThrough(), { isTTY: tty });
    let text = "";
    sink.on("data", (d: Buffer) => (text += d.toString()));
    await emit(
      io(sink),
      new Out(sink),
      [
        { a: "1", b: "long" },
        { a: "22", b: "x" },
      ],
      { json: null, row: (r) => [r.a, r.b] }
    );
    t.is(text, tty ? "1   long\n22  x\n" : "1\tlong\n22\tx\n");
  }
});

test("emit() still runs the records when there is nothing to print", async (t) => {
  let ran = 0;
  async function* gen() {
    ran++;
    yield { a: 1 };
  }
  const sink = new PassThrough();
  await emit(io(sink), new Out(sink), gen(), { json: null });
  t.is(ran, 1);
});

test("parseJsonFields() lists the available fields for an unknown one", (t) => {
  t.deepEqual(parseJsonFields("", ["a", "b"]), { fields: null });
  t.deepEqual(parseJsonFields("b,a", ["a", "b"]), { fields: ["b", "a"] });
  t.is(parseJsonFields(undefined, ["a"]), null);
  t.throws(() => parseJsonFields("a,zz", ["a", "b"]), { message: "unknown JSON field 'zz'; available: a,b" });
});
