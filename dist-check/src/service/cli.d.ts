export {};
//# sourceMappingURL=cli.d.ts.map
