/**
 * Test support for core's own tests (not part of its API): a seeded PRNG,
 * so a property test is the same on every run and a failure reproduces
 * from its seed. The kernel's `@forge/kernel/testing` has the same one for
 * the packages that use the kernel.
 */

/** mulberry32: floats in [0, 1); the same seed gives the same stream. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
