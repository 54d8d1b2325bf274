export {};
//# sourceMappingURL=changes.test.d.ts.map
