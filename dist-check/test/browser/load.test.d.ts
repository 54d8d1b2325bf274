export {};
//# sourceMappingURL=load.test.d.ts.map
