export {};
//# sourceMappingURL=topics.test.d.ts.map
