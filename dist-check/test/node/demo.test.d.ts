export {};
//# sourceMappingURL=demo.test.d.ts.map
