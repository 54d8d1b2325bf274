export {};
//# sourceMappingURL=tokens.test.d.ts.map
