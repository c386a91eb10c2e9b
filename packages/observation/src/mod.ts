/**
 * @module
 * The observation of a scope, built from the store's public surfaces (forge-observe, forge-plan).
 */
export {};
