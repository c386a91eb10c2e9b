import test from "ava";
import { fileKey, fileKeyEnd } from "./stamp.js";

test("fileKeyEnd() finds a line's file part as fileKey() writes it, comparing numbers, and nothing else", (t) => {
  const st = (ino: number, mtimeMs: number, ctimeMs: number, size: number) => ({ ino, mtimeMs, ctimeMs, size });
  const a = st(2647559, 1796388713056.906, 1796388713056.9062, 141);
  const key = fileKey(a);
  t.is(fileKeyEnd(key, a), key.length);
  t.is(fileKeyEnd(`${key}+123.456;-;`, a), key.length, "the folders' part after the +");
  // Each field, one ulp or one unit off; a field left empty (Number("") is 0); not four fields.
  const off = [
    st(2647558, a.mtimeMs, a.ctimeMs, 141),
    st(a.ino, 1796388713056.9058, a.ctimeMs, 141),
    st(a.ino, a.mtimeMs, 1796388713056.9065, 141),
    st(a.ino, a.mtimeMs, a.ctimeMs, 140),
  ];
  for (const b of off) t.is(fileKeyEnd(key, b), -1, fileKey(b));
  t.is(fileKeyEnd("2647559:1:2:", st(2647559, 1, 2, 0)), -1);
  t.is(fileKeyEnd(":1:2:0", st(0, 1, 2, 0)), -1);
  t.is(fileKeyEnd("2647559:1:2", st(2647559, 1, 2, 0)), -1);
  t.is(fileKeyEnd("", st(0, 0, 0, 0)), -1);
  // Whole-second mtimes, a file of 0 bytes, an inode past 2^53 (a double's text, as Node gives it).
  for (const b of [st(12, 1700000000000, 1700000000000, 0), st(2 ** 60 + 2 ** 10, 1.5, 0.25, 7)])
    t.is(fileKeyEnd(fileKey(b), b), fileKey(b).length, fileKey(b));
  // Random stats: the same numbers exactly when the same text.
  let seed = 7;
  const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 2000; i++) {
    const x = st(Math.floor(rnd() * 1e7), 1.7e12 + rnd() * 1e9, 1.7e12 + rnd() * 1e9, Math.floor(rnd() * 1e4));
    const y = i % 2 === 0 ? { ...x } : st(x.ino, x.mtimeMs + (rnd() < 0.5 ? 0 : 1e-3), x.ctimeMs, x.size);
    t.is(fileKeyEnd(fileKey(x), y) >= 0, fileKey(x) === fileKey(y));
  }
});
