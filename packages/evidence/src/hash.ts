import { createHash } from "node:crypto";
import { canonicalJson } from "@forge/kernel";

/**
 * sha256 (hex) of a value's canonical JSON: the content hash of bundles and batches.
 * @example contentSha256({a: 1}) === contentSha256({a: 1}) // true, whatever the key order
 */
export function contentSha256(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex");
}

/**
 * sha256 (hex) of a string, e.g. for deriving stable ids from their parts.
 * @example sha256Hex("") // "e3b0c442…"
 */
export function sha256Hex(s: string): string {
  return createHash("sha256").update(s).digest("hex");
}
