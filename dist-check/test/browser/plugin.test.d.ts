export {};
//# sourceMappingURL=plugin.test.d.ts.map
