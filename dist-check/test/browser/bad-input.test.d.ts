import '../../src/element/index.js';
//# sourceMappingURL=bad-input.test.d.ts.map
