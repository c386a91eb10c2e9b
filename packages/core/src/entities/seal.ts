/**
 * Sealed store files: a schema with `sealed` (a CI run's `summary.md`)
 * names a sha256 field that holds the sha256 of the file's bytes with that
 * field's 64 digits read as `0`s, written as the line `<field>: "<hex>"` at
 * the end of its known fields. Every write seals the text it writes; every
 * read checks it, so an edit of the file (still valid, so no other check
 * finds it) is found and named. A file without the field was written
 * before it existed and is read as it was (N−1).
 */
import { createHash } from "node:crypto";
import { InvalidFileError } from "../errors.js";
import type { EntitySchema } from "./schema.js";

/** The digest's placeholder while it is computed. */
export const ZERO_DIGEST = "0".repeat(64);

/** The line a sealed field is written as (`digest`: 64 hex). */
export function sealLine(name: string, digest: string): string {
  return `${name}: "${digest}"\n`;
}

/**
 * Put the digest of `text` (written with `sealLine(name, ZERO_DIGEST)`) in its place.
 * @returns the sealed text and its digest
 */
export function sealText(schema: EntitySchema, text: string): { text: string; digest: string } {
  const name = schema.sealed!;
  const line = "\n" + sealLine(name, ZERO_DIGEST);
  const at = text.indexOf(line);
  if (at < 0) throw new Error(`sealText: no ${name} placeholder`);
  const digest = createHash("sha256").update(text).digest("hex");
  const from = at + 1 + name.length + 3;
  return { text: text.slice(0, from) + digest + text.slice(from + 64), digest };
}

/**
 * Check a sealed file's digest against its text (nothing to check for a schema without `sealed`, or a file of
 * before the field).
 * @param data the file's validated known fields
 * @throws InvalidFileError naming the field when the text is not the one sealed
 */
export function checkSeal(schema: EntitySchema, text: string, data: Record<string, unknown>, file: string): void {
  const name = schema.sealed;
  if (name === undefined) return;
  const d = data[name];
  if (d === undefined) return;
  const line = "\n" + sealLine(name, d as string);
  const at = text.indexOf(line);
  const end = text.indexOf("\n---", 3);
  const ok =
    at >= 0 &&
    (end < 0 || at < end) &&
    createHash("sha256")
      .update(text.slice(0, at + line.length - 66) + ZERO_DIGEST + text.slice(at + line.length - 2))
      .digest("hex") === d;
  if (!ok) throw new InvalidFileError(file, "does not match the file's bytes (edited after it was written)", name);
}
