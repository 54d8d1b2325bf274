export {};
//# sourceMappingURL=static.test.d.ts.map
