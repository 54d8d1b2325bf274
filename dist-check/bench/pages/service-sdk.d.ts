export {};
//# sourceMappingURL=service-sdk.d.ts.map
