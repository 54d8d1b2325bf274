export {};
//# sourceMappingURL=service-package.test.d.ts.map
