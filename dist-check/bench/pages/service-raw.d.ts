export {};
//# sourceMappingURL=service-raw.d.ts.map
