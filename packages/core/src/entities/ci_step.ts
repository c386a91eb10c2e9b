/**
 * `.forge/ci/steps/NN-name`: a CI step is any executable file whose name is
 * two digits, a dash and a lower-case name (spec/schema.md, ci-step). Steps
 * run in filename order; the first nonzero exit is the verdict.
 */

/** A step's file name: `NN-name`, e.g. `10-test`. */
export const CI_STEP_NAME = /^[0-9]{2}-[a-z0-9-]+$/;

/**
 * Whether `name` is a CI step's file name.
 * @example isCiStepName("10-test") // true
 * @example isCiStepName("test.sh") // false
 */
export function isCiStepName(name: string): boolean {
  return CI_STEP_NAME.test(name);
}

/**
 * The step names of a folder listing, in run order: names that are not
 * steps are left out (a README, an editor's backup), the rest sorted by
 * code unit, never by locale, so every machine runs the same order.
 * @param names file names in `.forge/ci/steps/`
 * @returns the steps, in the order they run
 * @example ciStepOrder(["20-lint", "README.md", "10-build"]) // ["10-build", "20-lint"]
 */
export function ciStepOrder(names: readonly string[]): string[] {
  return names.filter(isCiStepName).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
