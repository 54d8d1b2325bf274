export {};
//# sourceMappingURL=studio.spec.d.ts.map
