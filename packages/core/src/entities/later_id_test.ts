import test from "ava";
import { isUuid } from "../time.js";
import { idAfter, laterId } from "./later_id.js";
import type { Order, OrderEntry } from "./order.js";

function order(entries: Array<[string, string]>): Order {
  const list: OrderEntry[] = entries
    .map(([createdAt, id]) => ({ createdAt, ref: { id, archived: false } }))
    .sort((a, b) => (`${a.createdAt} ${a.ref.id}` < `${b.createdAt} ${b.ref.id}` ? -1 : 1));
  return {
    length: list.length,
    at: (i) => list.at(i),
    rankOf: (c, id) => list.filter((e) => `${e.createdAt} ${e.ref.id}` < `${c} ${id}`).length,
    entries: list,
    errors: [],
  };
}

test("idAfter gives a valid uuid v4 greater than the id, even near the top", (t) => {
  for (const id of [
    "00000000-0000-4000-8000-000000000000",
    "7f3a0000-0000-4000-8000-000000000000",
    "fffffffe-ffff-4fff-bfff-ffffffffffff",
  ]) {
    for (let k = 0; k < 200; k++) {
      const n = idAfter(id);
      t.true(isUuid(n), n);
      t.true(n > id, `${n} > ${id}`);
    }
  }
});

test("laterId ranks after every entity of the same second, and is random otherwise", (t) => {
  const now = "2026-01-02T03:04:05Z";
  const big = "fe000000-0000-4000-8000-000000000000";
  const o = order([
    ["2026-01-02T03:04:04Z", "ff000000-0000-4000-8000-000000000000"],
    [now, "10000000-0000-4000-8000-000000000000"],
    [now, big],
  ]);
  for (let k = 0; k < 200; k++) {
    const id = laterId(o, now);
    t.true(id > big);
    t.is(o.rankOf(now, id), 3, "the new entity takes the next number");
  }
  t.true(isUuid(laterId(order([]), now)));
});
