export {};
//# sourceMappingURL=cli.test.d.ts.map
