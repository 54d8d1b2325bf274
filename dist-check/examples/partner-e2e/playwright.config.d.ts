declare const _default: import('@playwright/test').PlaywrightTestConfig<{}, {}>;
export default _default;
//# sourceMappingURL=playwright.config.d.ts.map
