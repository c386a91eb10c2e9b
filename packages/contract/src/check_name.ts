/**
 * A check's name: a CI step (`20-unit`), or one test of a step that wrote
 * test reports (`20-unit › parser › handles --`: the step, ` › `, the test's
 * id). Step names never hold ` › ` (`NN-name`), so the first one splits a
 * check name. Claims, plans, typed diffs and reports all name checks so;
 * a claim's subject keeps the parts (`step`, and `test` for a test).
 */

/** Between a step and its test's id in a check name. */
export const CHECK_SEPARATOR = " › ";

/** A check's name from its step and test id (null: the step itself). */
export function checkName(step: string, test: string | null | undefined): string {
  return test ? `${step}${CHECK_SEPARATOR}${test}` : step;
}

/**
 * The step and test id of a check name.
 * @example splitCheck("20-unit › parser › x") // { step: "20-unit", test: "parser › x" }
 */
export function splitCheck(name: string): { step: string; test: string | null } {
  const i = name.indexOf(CHECK_SEPARATOR);
  return i < 0 ? { step: name, test: null } : { step: name.slice(0, i), test: name.slice(i + CHECK_SEPARATOR.length) };
}

/** A claim subject's check name: `step`, with ` › test` when it names a test; null when it names no step. */
export function subjectCheck(subject: Record<string, unknown> | null | undefined): string | null {
  const s = subject?.step;
  if (typeof s !== "string") return null;
  const t = subject?.test;
  return checkName(s, typeof t === "string" ? t : null);
}
