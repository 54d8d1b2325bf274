export {};
//# sourceMappingURL=render.test.d.ts.map
