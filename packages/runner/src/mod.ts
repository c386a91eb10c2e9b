/**
 * @module
 * The CI runner and its run records (used by forge-ci, forge-run, forge-act, forge-merge).
 */
export {};
