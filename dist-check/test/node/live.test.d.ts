export {};
//# sourceMappingURL=live.test.d.ts.map
