export {};
//# sourceMappingURL=journey.test.d.ts.map
