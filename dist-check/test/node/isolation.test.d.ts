export {};
//# sourceMappingURL=isolation.test.d.ts.map
