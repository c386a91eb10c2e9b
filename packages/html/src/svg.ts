/**
 * The two pictures of the page, as inline SVG (no script, no external
 * resource): a rate and its 95 % interval on a 0–1 axis, and a strip of
 * trial outcomes in recorded order. Coordinates are whole numbers or fixed
 * decimals, so the same data gives the same bytes.
 */

const W = 100;

/** A micros value (0..1e6) on the 0–100 axis, with at most one decimal. */
function x(micros: number): string {
  const v = Math.min(1_000_000, Math.max(0, micros)) / 10_000;
  return String(Math.round(v * 10) / 10);
}

/**
 * A fail rate and its interval, drawn on a 0–1 axis: the interval a bar, the rate a tick (none when unknown).
 * @param label its text equivalent (the SVG's `aria-label` and `<title>`): already escaped
 * @example rateBar(50_000, 200_000, 400_000, "0.20 [0.05, 0.40]")
 */
export function rateBar(low: number, rate: number | null, high: number, label: string): string {
  const lo = x(low);
  const width = String(Math.round((Number(x(high)) - Number(lo)) * 10) / 10);
  const tick = rate === null ? "" : `<path class="r" d="M${x(rate)} 1v10"/>`;
  return (
    `<svg class="bar" viewBox="0 0 ${W} 12" role="img" aria-label="${label}"><title>${label}</title>` +
    `<path class="ax" d="M0 6h${W}M0 3v6M50 4v4M${W} 3v6"/>` +
    `<rect class="iv" x="${lo}" y="3" width="${width}" height="6"/>${tick}</svg>`
  );
}

const RUN = /p+|f+|e+|[^pfe]+/g;

/**
 * Trial outcomes in order, one unit of width each: passes the background,
 * fails and errors as runs on one path each (a run of k equal outcomes is
 * one `h k`), so 1,000 trials at a 20 % fail rate take about 1.5 KB.
 * @param outcomes one letter per trial: `p` pass, `f` fail, `e` error
 * @example outcomeStrip("ppfpe")
 */
export function outcomeStrip(outcomes: string): string {
  const n = outcomes.length;
  if (n === 0) return `<span class="none">no trials</span>`;
  const paths: Record<"f" | "e", string[]> = { f: [], e: [] };
  const at: Record<"f" | "e", number> = { f: 0, e: 0 };
  for (const m of outcomes.matchAll(RUN)) {
    const k = m[0][0] as "p" | "f" | "e";
    if (k !== "f" && k !== "e") continue;
    const start = m.index;
    paths[k].push(`m${start - at[k]} 0h${m[0].length}`);
    at[k] = start + m[0].length;
  }
  const fails = outcomes.split("f").length - 1;
  const errors = outcomes.split("e").length - 1;
  const label = `${n} trials in order: ${n - fails - errors} pass, ${fails} fail, ${errors} error`;
  const path = (k: "f" | "e"): string => (paths[k].length ? `<path class="${k}" d="M0 4${paths[k].join("")}"/>` : "");
  return (
    `<svg class="strip" viewBox="0 0 ${n} 8" preserveAspectRatio="none" role="img" aria-label="${label}">` +
    `<title>${label}</title><rect class="p" width="${n}" height="8"/>${path("f")}${path("e")}</svg>`
  );
}
