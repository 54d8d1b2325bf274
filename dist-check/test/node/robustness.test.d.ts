export {};
//# sourceMappingURL=robustness.test.d.ts.map
