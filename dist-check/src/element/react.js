export {};
//# sourceMappingURL=react.js.map
