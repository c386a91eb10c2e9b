/**
 * @module
 * The loop's lines as types and parsers: observation kinds, targets, plans, act results, halts.
 */
export {};
