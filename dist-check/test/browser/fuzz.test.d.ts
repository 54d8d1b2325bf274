export {};
//# sourceMappingURL=fuzz.test.d.ts.map
