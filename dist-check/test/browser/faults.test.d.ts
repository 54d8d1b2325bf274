export {};
//# sourceMappingURL=faults.test.d.ts.map
