export {};
//# sourceMappingURL=cdn.test.d.ts.map
