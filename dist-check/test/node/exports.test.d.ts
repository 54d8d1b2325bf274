export {};
//# sourceMappingURL=exports.test.d.ts.map
