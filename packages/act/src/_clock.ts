/**
 * The act's limits: an absolute deadline (epoch ms, handed in by the
 * caller) and an interruption (SIGTERM/SIGINT): no trial starts after
 * either; the running one finishes (a signal also cancels its step).
 */

/** What an executor checks before each trial. */
export interface Limits {
  deadlineMs: number | null;
  now: () => number;
  interrupted: () => boolean;
}

/** Why an act stops before its question is decided, or null to go on. */
export function stopReason(l: Limits): "deadline" | "interrupted" | null {
  if (l.interrupted()) return "interrupted";
  if (l.deadlineMs !== null && l.now() >= l.deadlineMs) return "deadline";
  return null;
}

/** How far past the deadline the act finished (0 when inside it or without one). */
export function overrunMs(l: Limits): number {
  return l.deadlineMs === null ? 0 : Math.max(0, l.now() - l.deadlineMs);
}
