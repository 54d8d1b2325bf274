export {};
//# sourceMappingURL=server-helpers.test.d.ts.map
