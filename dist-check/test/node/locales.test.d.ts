export {};
//# sourceMappingURL=locales.test.d.ts.map
