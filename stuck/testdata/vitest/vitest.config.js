export default { test: { testTimeout: 0 } };
