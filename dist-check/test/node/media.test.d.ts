export {};
//# sourceMappingURL=media.test.d.ts.map
