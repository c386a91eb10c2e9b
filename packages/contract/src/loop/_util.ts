/** What the loop's files share: their corruption error and sha256. */
import { createHash } from "node:crypto";
import { ForgeError } from "@forge/core";

/** A loop's files are damaged (a gap, a duplicate, an unparsable or edited line): never repaired (exit 1). */
export class StorageCorruptionError extends ForgeError {
  /** The damaged file, as shown (`.forge/loops/<id>/events.jsonl`). */
  readonly file: string;
  /** What is wrong with it. */
  readonly why: string;
  constructor(file: string, why: string) {
    super(`storage_corruption: ${file}: ${why}`, "E_STORAGE_CORRUPTION", 1);
    this.name = "StorageCorruptionError";
    this.file = file;
    this.why = why;
  }
}

/** sha256 hex of a string or bytes. */
export function sha256(s: string | Uint8Array): string {
  return createHash("sha256").update(s).digest("hex");
}
