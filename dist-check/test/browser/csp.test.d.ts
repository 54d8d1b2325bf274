export {};
//# sourceMappingURL=csp.test.d.ts.map
