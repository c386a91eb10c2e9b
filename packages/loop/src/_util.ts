/**
 * Small helpers of forge-loop: the storage-corruption and invalid-report
 * errors, the injectable clock, derived ids, sha256.
 */
import { createHash } from "node:crypto";
import { ForgeError, formatTimestamp, isTimestamp, printable, UsageError } from "@forge/core";

export { StorageCorruptionError } from "@forge/contract/loop";

/** A round report breaks its schema: nothing changes (exit 1). */
export class InvalidReportError extends ForgeError {
  readonly field: string;
  readonly why: string;
  /** @param source the report's file (`stdin` for `-`), when known */
  constructor(field: string, why: string, source?: string) {
    super(
      `invalid_round_report: ${source ? `${printable(source, 200)}: ` : ""}field '${printable(field, 80)}': ${why}`,
      "E_INVALID_ROUND_REPORT",
      1
    );
    this.name = "InvalidReportError";
    this.field = field;
    this.why = why;
  }
}

/** sha256 hex of a string or bytes. */
export function sha256(s: string | Uint8Array): string {
  return createHash("sha256").update(s).digest("hex");
}

/** Whitespace collapsed and trimmed: the text an id is derived from. */
export function normText(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/**
 * A stable id derived from the loop and the text: the same text in the
 * same loop always gives the same id.
 * @example derivedId("c", loopId, "no new deps") // "c-1a2b3c4d"
 */
export function derivedId(prefix: "c" | "cr" | "sg", loopId: string, text: string): string {
  return `${prefix}-${sha256(`${loopId}\n${prefix}\n${normText(text)}`).slice(0, 8)}`;
}

/** The id of logical round `n` of a loop (stable across its attempts). */
export function roundIdOf(loopId: string, n: number): string {
  return `rd-${sha256(`${loopId}\nround\n${n}`).slice(0, 8)}`;
}

/**
 * The clock: `FORGE_NOW` (an RFC 3339 UTC timestamp) when set, so tests pass
 * explicit time; else the system clock.
 * @throws UsageError for a malformed FORGE_NOW
 */
export function clockOf(env: Record<string, string | undefined>): () => Date {
  const fixed = env.FORGE_NOW;
  if (fixed === undefined || fixed === "") return () => new Date();
  if (!isTimestamp(fixed))
    throw new UsageError(`FORGE_NOW: expected an RFC 3339 UTC timestamp, got '${printable(String(fixed), 30)}'`);
  const d = new Date(fixed);
  return () => d;
}

/** The clock's time as a store timestamp. */
export function stamp(now: () => Date): string {
  return formatTimestamp(now());
}

/** Truncate to `n` characters (with an ellipsis), one line. */
export function clip(s: string, n: number): string {
  const t = s.replace(/[\r\n\t]+/g, " ");
  return t.length > n ? t.slice(0, n - 1) + "…" : t;
}
