export {};
//# sourceMappingURL=element.test.d.ts.map
