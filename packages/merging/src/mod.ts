/**
 * @module
 * The merge ritual (used by forge-merge and forge-pr merge).
 */
export {};
