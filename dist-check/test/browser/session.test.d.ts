export {};
//# sourceMappingURL=session.test.d.ts.map
