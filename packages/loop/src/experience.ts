/**
 * Experience memory: `.forge/experience/<id>.md`, one record each —
 * `observation` (expires 30 days after it was observed unless told),
 * `hypothesis` (90 days), `lesson` (needs an expiry or a written
 * rationale). Every change names the revision it expects (compare and set,
 * under the record's lock); `supersede` and `retract` are terminal for
 * recall and keep the record for audit. Recall filters by scope (exact)
 * before ranking, is bounded in items and bytes, and its text is advisory
 * data, never an instruction. Expiry is decided by explicit timestamps
 * (the caller's clock), never by the file's mtime.
 */
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import {
  AmbiguousRefError,
  atomicWrite,
  ConflictError,
  displayPath,
  formatFrontmatter,
  formatTimestamp,
  isTimestamp,
  isUuid,
  NotFoundError,
  parseFrontmatterFast,
  printable,
  readStoreFile,
  type Store,
  UsageError,
} from "@forge/core";
import { normText, StorageCorruptionError } from "./_util.js";
import { takeLock } from "./lock.js";

export const KINDS = ["observation", "hypothesis", "lesson"] as const;
export type ExperienceKind = (typeof KINDS)[number];
const DAY = 86_400_000;
/** Default lifetime by kind (a lesson has none: it needs an expiry or a rationale). */
export const DEFAULT_DAYS: Record<ExperienceKind, number | null> = { observation: 30, hypothesis: 90, lesson: null };

/** One record. */
export interface Experience {
  id: string;
  kind: ExperienceKind;
  scope: string;
  text: string;
  rationale: string | null;
  observedAt: string;
  createdAt: string;
  expiresAt: string | null;
  revision: number;
  status: "active" | "superseded" | "retracted";
  supersedes: string | null;
  supersededBy: string | null;
  retractedAt: string | null;
  reason: string | null;
  updatedAt: string;
}

/** What `learn` takes. */
export interface NewExperience {
  kind: ExperienceKind;
  scope: string;
  text: string;
  rationale: string | null;
  observedAt: string | null;
  expiresAt: string | null;
}

/** `.forge/experience/`. */
export function experienceDir(store: Store): string {
  return join(store.dir, "experience");
}

function fileOf(store: Store, id: string): string {
  return join(experienceDir(store), `${id}.md`);
}

const SCOPE = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,99}$/;

/**
 * A new record, validated against the clock.
 * @throws UsageError naming the flag
 */
export function newRecord(
  n: NewExperience,
  now: Date,
  id: string = randomUUID(),
  supersedes: string | null = null
): Experience {
  if (!SCOPE.test(n.scope))
    throw new UsageError(`--scope: '${printable(n.scope, 40)}' is not a scope (letters, digits, . _ : / -)`);
  const text = normText(n.text);
  if (text === "" || text.length > 2000) throw new UsageError("--text: expected 1..2000 characters");
  const at = formatTimestamp(now);
  const observedAt = n.observedAt ?? at;
  if (!isTimestamp(observedAt)) throw new UsageError("--observed-at: expected an RFC 3339 UTC timestamp");
  if (observedAt > at) throw new UsageError(`--observed-at: ${observedAt} is in the future`);
  let expiresAt = n.expiresAt;
  if (expiresAt !== null && !isTimestamp(expiresAt))
    throw new UsageError("--expires: expected an RFC 3339 UTC timestamp");
  const days = DEFAULT_DAYS[n.kind];
  if (expiresAt === null && days !== null) expiresAt = formatTimestamp(new Date(Date.parse(observedAt) + days * DAY));
  if (n.kind === "lesson" && expiresAt === null && (n.rationale === null || n.rationale.trim() === ""))
    throw new UsageError("a lesson needs --expires or --rationale (why it stays true)");
  if (expiresAt !== null && expiresAt <= observedAt) throw new UsageError("--expires: must be after the observation");
  return {
    id,
    kind: n.kind,
    scope: n.scope,
    text,
    rationale: n.rationale?.trim() || null,
    observedAt,
    createdAt: at,
    expiresAt,
    revision: 1,
    status: "active",
    supersedes,
    supersededBy: null,
    retractedAt: null,
    reason: null,
    updatedAt: at,
  };
}

/** Whether a record may be recalled at `now`. */
export function recallable(e: Experience, now: Date): boolean {
  return e.status === "active" && (e.expiresAt === null || e.expiresAt > formatTimestamp(now));
}

/** Every record of the store (a damaged one is storage_corruption). */
export function readExperience(store: Store): Experience[] {
  const dir = experienceDir(store);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith(".md") && isUuid(n.slice(0, -3)))
    .sort()
    .map((n) => loadRecord(store, n.slice(0, -3)));
}

function loadRecord(store: Store, id: string): Experience {
  const file = fileOf(store, id);
  const name = displayPath(store, file);
  const fm = parseFrontmatterFast(readStoreFile(store, file), name);
  const d = fm?.data as unknown as Experience | undefined;
  if (
    !d ||
    d.id !== id ||
    !KINDS.includes(d.kind) ||
    typeof d.revision !== "number" ||
    typeof d.text !== "string" ||
    typeof d.scope !== "string"
  ) {
    throw new StorageCorruptionError(name, "not an experience record");
  }
  return d;
}

function save(store: Store, e: Experience, create: boolean): void {
  atomicWrite(fileOf(store, e.id), formatFrontmatter({ ...e }, ""), create ? { exclusive: true } : {});
}

/** Resolve a record ref (full id or unique prefix of 4+ hex). */
export function resolveExperience(store: Store, ref: string): string {
  if (!/^[0-9a-f-]{4,36}$/.test(ref)) throw new UsageError(`invalid experience ref '${ref.slice(0, 40)}'`);
  const dir = experienceDir(store);
  const hits = existsSync(dir)
    ? readdirSync(dir).filter((n) => n.endsWith(".md") && isUuid(n.slice(0, -3)) && n.startsWith(ref))
    : [];
  if (hits.length === 0) throw new NotFoundError(`no experience record '${ref}'`);
  if (hits.length > 1) throw new AmbiguousRefError(`experience prefix '${ref}' matches ${hits.length} records`);
  return hits[0]!.slice(0, -3);
}

/** Record a new experience. */
export function learn(store: Store, n: NewExperience, now: Date): Experience {
  const e = newRecord(n, now);
  save(store, e, true);
  return e;
}

/** Change one record under its lock, if it is at `expected`. */
function change(
  store: Store,
  id: string,
  expected: number,
  fn: (e: Experience) => Experience,
  also?: (e: Experience) => void
): Experience {
  const held = takeLock(fileOf(store, id) + ".lock", `experience ${id.slice(0, 8)}`);
  try {
    const cur = loadRecord(store, id);
    if (cur.revision !== expected)
      throw new ConflictError(
        `stale revision: experience ${id.slice(0, 8)} is at revision ${cur.revision}, not ${expected}`
      );
    if (cur.status !== "active") throw new ConflictError(`experience ${id.slice(0, 8)} is ${cur.status}`);
    const next = fn(cur);
    also?.(next);
    save(store, next, false);
    return next;
  } finally {
    held.release();
  }
}

/**
 * Replace a record by a new one (the old one is superseded, kept for audit).
 * @returns [the new record, the superseded one]
 */
export function supersede(
  store: Store,
  id: string,
  expected: number,
  n: Partial<NewExperience> & { text: string },
  now: Date
): [Experience, Experience] {
  let made: Experience | null = null;
  const old = change(
    store,
    id,
    expected,
    (cur) => {
      const next = newRecord(
        {
          kind: n.kind ?? cur.kind,
          scope: n.scope ?? cur.scope,
          text: n.text,
          rationale: n.rationale ?? null,
          observedAt: n.observedAt ?? null,
          expiresAt: n.expiresAt ?? null,
        },
        now,
        randomUUID(),
        cur.id
      );
      made = next;
      const at = formatTimestamp(now);
      return { ...cur, status: "superseded", supersededBy: next.id, revision: cur.revision + 1, updatedAt: at };
    },
    () => save(store, made!, true)
  );
  return [made!, old];
}

/** Retract a record: terminal for recall, kept for audit. */
export function retract(store: Store, id: string, expected: number, reason: string, now: Date): Experience {
  if (reason.trim() === "") throw new UsageError("--reason: say why the record is retracted");
  const at = formatTimestamp(now);
  return change(store, id, expected, (cur) => ({
    ...cur,
    status: "retracted",
    retractedAt: at,
    reason: normText(reason),
    revision: cur.revision + 1,
    updatedAt: at,
  }));
}

/** Options of `recallExperience`. */
export interface RecallOptions {
  scope: string;
  query?: string;
  limit: number;
  maxBytes: number;
  now: Date;
}

/** A recalled record: advisory data. */
export type Recalled = Experience & { advisory: true; score: number };

const WEIGHT: Record<ExperienceKind, number> = { lesson: 3, hypothesis: 2, observation: 1 };

/**
 * Recall: the scope's recallable records (filtered before ranking), ranked
 * by query words matched, then kind (lesson, hypothesis, observation), then
 * the latest observation, then id; at most `limit` items and `maxBytes`
 * bytes of text.
 */
export function recallExperience(store: Store, o: RecallOptions): Recalled[] {
  const words = new Set(
    (o.query ?? "")
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length >= 3)
  );
  const pool = readExperience(store).filter((e) => e.scope === o.scope && recallable(e, o.now));
  const scored = pool.map((e) => {
    const text = e.text.toLowerCase();
    let score = 0;
    for (const w of words) if (text.includes(w)) score++;
    return { ...e, advisory: true as const, score };
  });
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      WEIGHT[b.kind] - WEIGHT[a.kind] ||
      (a.observedAt < b.observedAt ? 1 : a.observedAt > b.observedAt ? -1 : 0) ||
      (a.id < b.id ? -1 : 1)
  );
  const out: Recalled[] = [];
  let bytes = 0;
  for (const e of scored) {
    if (out.length >= o.limit) break;
    const b = Buffer.byteLength(e.text);
    if (bytes + b > o.maxBytes) break;
    bytes += b;
    out.push(e);
  }
  return out;
}
