/** ScopeStale: a scope never imported (export evidence first), or whose last import is older than `stale_after_s`. */
import type { ObservationHeader } from "@forge/contract";
import { BASE_MICROS } from "../config.js";
import type { Found, TargetContext } from "./_context.js";

/** The base urgency of a scope never imported. */
const NEVER_IMPORTED_MICROS = 400_000;

/** The target of a stale scope, or null (also when the header has no `health`: nothing is invented). */
export function scopeStale(h: ObservationHeader, c: TargetContext): Found | null {
  const health = h.health as ObservationHeader["health"] | undefined;
  if (health === undefined) return null;
  const last = health.last_import_at;
  const key = `stale:${h.scope}`;
  if (last === null) {
    const why = "never imported: export evidence first";
    return { key, base_micros: NEVER_IMPORTED_MICROS, refs: [], plan_why: why, draft: null };
  }
  if (c.now - Date.parse(last) / 1000 > c.cfg.stale_after_s) {
    return { key, base_micros: BASE_MICROS.ScopeStale, refs: [], plan_why: `last import ${last}`, draft: null };
  }
  return null;
}
