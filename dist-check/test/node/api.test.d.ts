export {};
//# sourceMappingURL=api.test.d.ts.map
