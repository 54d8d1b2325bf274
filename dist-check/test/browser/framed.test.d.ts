export {};
//# sourceMappingURL=framed.test.d.ts.map
