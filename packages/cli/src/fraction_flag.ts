/** A fraction flag (`--precision 0.3`, `--threshold 0.25`) read as integer micros (1.0 = 1,000,000). */
import { UsageError } from "@forge/core";

/**
 * A fraction flag's value in micros: up to six decimals, at most `max`.
 * @param name the flag, as errors name it
 * @param raw the flag's text, undefined when not given
 * @param dflt the micros when not given
 * @throws UsageError naming the flag
 * @example fractionFlag("precision", "0.3", 300_000) // 300000
 */
export function fractionFlag(name: string, raw: string | undefined, dflt: number, max = 1): number {
  if (raw === undefined) return dflt;
  if (!/^(0|1)?(\.[0-9]{1,6})?$/.test(raw) || raw === "" || raw === "." || Number(raw) > max) {
    throw new UsageError(`invalid ${name} '${raw.slice(0, 20)}' (a fraction, e.g. 0.3)`);
  }
  return Math.round(Number(raw) * 1_000_000);
}
