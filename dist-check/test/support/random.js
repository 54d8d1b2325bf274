/**
 * The seeded PRNG of every generated test input (the fuzzer, the bad-input tables, the service's
 * load burst): the same seed gives the same sequence, so a failure reproduces from its seed.
 */
/** mulberry32: a tiny, fast PRNG whose whole state is one 32-bit number. */
export function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
//# sourceMappingURL=random.js.map
