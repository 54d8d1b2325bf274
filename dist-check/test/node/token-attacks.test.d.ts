export {};
//# sourceMappingURL=token-attacks.test.d.ts.map
