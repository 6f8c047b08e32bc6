// Every test passes, but half of src/half.js runs: under --coverage,
// vitest fails the run for the lines threshold.
export default {
  test: {
    include: ['test/**/*.test.js'],
    coverage: { provider: 'v8', include: ['src/**'], reporter: ['text-summary'], thresholds: { lines: 80 } },
  },
}
