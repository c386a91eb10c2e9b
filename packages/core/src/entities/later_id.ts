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
import { closeSync, openSync, readdirSync, readSync } from "node:fs";
import { join } from "node:path";
import { isUuid } from "../time.js";
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

/**
 * A random uuid v4 for a new record file (a comment, a review) in `dirs`
 * that sorts after every record there created at `now`, so records made in
 * the same second read back in the order they were made (records are read
 * oldest first by `(createdAt, id)`).
 * @param dirs the record folders of the entity (live, and archived when it is)
 * @param now the new record's createdAt
 * @example laterRecordId([commentsDir(store, ISSUES, id)], "2026-01-02T03:04:05Z")
 */
export function laterRecordId(dirs: readonly string[], now: string): string {
  let max: string | undefined;
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const n of names) {
      const id = n.slice(0, -3);
      if (!n.endsWith(".md") || !isUuid(id) || (max !== undefined && id <= max)) continue;
      if (createdAtOf(join(dir, n)) === now) max = id;
    }
  }
  return max === undefined ? randomUUID() : idAfter(max);
}

/** The `createdAt` of a record file as forge writes it (in its first 4 KiB), or undefined. */
function createdAtOf(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return /^createdAt: "?([^"\n]*)"?$/m.exec(buf.subarray(0, n).toString("utf8"))?.[1];
  } finally {
    closeSync(fd);
  }
}
