/**
 * @module
 * forge-pilot: the closed loop.
 */
export {};
