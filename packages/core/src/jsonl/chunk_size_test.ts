import test from "ava";
import { FIRST_CHUNK, nextChunk } from "./chunk_size.js";

test("nextChunk(): the first line alone, then 4 KiB, doubling up to the writer's max", (t) => {
  const sizes = [FIRST_CHUNK];
  for (let k = 0; k < 7; k++) sizes.push(nextChunk(sizes.at(-1)!, 1 << 16));
  t.deepEqual(sizes, [1, 4096, 8192, 16384, 32768, 65536, 65536, 65536]);
  t.is(nextChunk(1 << 17, 1 << 17), 1 << 17);
});
