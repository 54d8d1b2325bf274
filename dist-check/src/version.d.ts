/** The SDK version (semver); a test keeps it equal to package.json's. */
export declare const VERSION = '0.1.0';
//# sourceMappingURL=version.d.ts.map
