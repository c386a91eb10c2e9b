/**
 * New ids that keep numbers stable. Numbers are ranks in `(createdAt, id)`
 * with second-precision timestamps, so two entities made in the same
 * second are ordered by id; with a plain random id the second one could
 * rank first and take the number already printed for the first. A new id
 * is therefore a random uuid v4 chosen to sort after every id of its
 * second. (Two processes creating in the same second still race; nothing
 * could order those.)
 */
import { randomInt, randomUUID } from "node:crypto";
import type { Order } from "./order.js";

const MAX_ID = "ffffffff-ffff-4fff-bfff-ffffffffffff";

/**
 * A random uuid v4 that ranks after every entity of `order` created at `now`.
 * @param order the kind's order just before the new entity is written
 * @param now the new entity's createdAt
 * @example laterId(order, "2026-01-02T03:04:05Z") // "…" (> every id created that second)
 */
export function laterId(order: Order, now: string): string {
  const i = order.rankOf(now, MAX_ID) - 1;
  const last = i >= 0 ? order.at(i) : undefined;
  return last && last.createdAt === now ? idAfter(last.ref.id) : randomUUID();
}

/**
 * A random uuid v4 greater than `id` (a lowercase uuid): random, then its
 * first 8 hex digits raised above `id`'s when it is not already greater.
 */
export function idAfter(id: string): string {
  const r = randomUUID();
  if (r > id) return r;
  const head = parseInt(id.slice(0, 8), 16);
  if (head >= 0xffffffff) return r; // 2^-32: no room above; the order then falls back to chance.
  const next = head + 1 + randomInt(Math.min(0x10000, 0xffffffff - head));
  return next.toString(16).padStart(8, "0") + r.slice(8);
}
