export {};
//# sourceMappingURL=persistence.test.d.ts.map
