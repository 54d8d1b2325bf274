export {};
//# sourceMappingURL=wire.test.d.ts.map
