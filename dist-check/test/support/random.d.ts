/**
 * The seeded PRNG of every generated test input (the fuzzer, the bad-input tables, the service's
 * load burst): the same seed gives the same sequence, so a failure reproduces from its seed.
 */
/** mulberry32: a tiny, fast PRNG whose whole state is one 32-bit number. */
export declare function mulberry32(seed: number): () => number;
//# sourceMappingURL=random.d.ts.map
