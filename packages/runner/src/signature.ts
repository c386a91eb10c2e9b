/**
 * Failure signatures (`sig-v1:`): the same failure in two runs gets the same
 * signature, a different failure a different one. The last lines of a
 * failed step's log are normalised (escape codes and carriage-return
 * progress dropped; timestamps, uuids, temp paths, hex ids and numbers
 * masked; spaces collapsed) and hashed with the step's name and the kind of
 * failure. The version is part of the signature, so a change of masking
 * makes new signatures instead of quietly merging old ones
 * (loop-anchors §6.2: LUCI's "reason-v6", Sentry's pinned configs).
 */
import { createHash } from "node:crypto";

/** The signature algorithm's version, written into every signature. */
export const SIGNATURE_VERSION = "sig-v1";

/** How many non-blank lines of the log's tail are hashed. */
export const TAIL_LINES = 20;

/** How a step failed: its own exit code, a signal, or the time limit. */
export type FailureKind = "exit" | "signal" | "timeout";

/** A failure's signature and the masked text it was computed from (kept for a reader). */
export interface Signature {
  signature: string;
  text: string[];
}

// Order matters: wider patterns first, so a timestamp is not read as numbers.
const MASKS: ReadonlyArray<[RegExp, string]> = [
  [/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, "<ts>"],
  [/\b\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, "<ts>"],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<uuid>"],
  [/(?:\/tmp|\/var\/tmp|\/var\/folders|\/private\/var\/folders|\/dev\/shm)(?:\/[^\s:'"`)]*)?/g, "<tmp>"],
  [/\b0x[0-9a-f]+\b/gi, "<hex>"],
  [/\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,}\b/gi, "<hex>"],
  [/\d+(?:\.\d+)?/g, "<n>"],
];

/**
 * One log line, masked.
 * @param line a line without its newline
 * @param tree the folder the step ran in (masked as `<tree>` first)
 * @example maskLine("at 2026-01-02T03:04:05Z took 41 ms in /tmp/x1/y", "") // "at <ts> took <n> ms in <tmp>"
 */
export function maskLine(line: string, tree = ""): string {
  // eslint-disable-next-line no-control-regex
  let s = line.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, "");
  const cr = s.lastIndexOf("\r");
  if (cr >= 0) s = s.slice(cr + 1);
  if (tree !== "") s = s.split(tree).join("<tree>");
  for (const [re, to] of MASKS) s = s.replace(re, to);
  return s.replace(/\s+/g, " ").trim();
}

/**
 * The masked last `TAIL_LINES` non-blank lines of a log.
 * @param log the log's tail (bytes decoded as UTF-8; a cut first line is dropped by the caller)
 * @param tree the folder the step ran in
 */
export function maskedTail(log: string, tree = ""): string[] {
  const out: string[] = [];
  const lines = log.split("\n");
  for (let i = lines.length - 1; i >= 0 && out.length < TAIL_LINES; i--) {
    const m = maskLine(lines[i]!, tree);
    if (m !== "") out.push(m);
  }
  return out.reverse();
}

/**
 * The signature of a failed step.
 * @param step the step's name (`10-test`)
 * @param kind how it failed
 * @param code the exit code (kind `exit`), the signal number (kind `signal`), or null
 * @param log the tail of its log
 * @param tree the folder it ran in
 * @returns `sig-v1:` and 32 hex digits (the first 16 bytes of a sha256), with the masked text
 * @example failureSignature("10-test", "exit", 1, "expected 3 got 4\n").signature // "sig-v1:…"
 */
export function failureSignature(
  step: string,
  kind: FailureKind,
  code: number | null,
  log: string,
  tree = ""
): Signature {
  const text = maskedTail(log, tree);
  // Canonical JSON: fixed key order, no spaces.
  const canonical = JSON.stringify({
    v: SIGNATURE_VERSION,
    check: step,
    kind,
    code: kind === "timeout" ? null : code,
    tail: text,
  });
  const digest = createHash("sha256").update(canonical).digest("hex").slice(0, 32);
  return { signature: `${SIGNATURE_VERSION}:${digest}`, text };
}
