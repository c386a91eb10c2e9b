/** The schema tag of each line kind the loop's stages exchange (spec/loop.md, spec/evidence.md §6.3). */

/** forge-observe's header line. */
export const OBSERVATION_SCHEMA = "forge-observation/v1";
/** forge-plan's plan line. */
export const PLAN_SCHEMA = "forge-plan/v1";
/** forge-act's result line (what forge-export takes). */
export const ACT_RESULT_SCHEMA = "forge-act-result/v1";
/** forge-pilot's report line. */
export const REPORT_SCHEMA = "forge-pilot-report/v1";
