export {};
//# sourceMappingURL=service-penpal.d.ts.map
