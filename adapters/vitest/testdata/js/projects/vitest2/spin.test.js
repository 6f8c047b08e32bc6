import { test } from 'vitest'

// Run only when asked (STROBE_FIXTURE_SPIN=1): the stuck detector's case.
// A test passes, then one spins once it has waited a moment (vitest 2
// sends its tests' results when its worker is idle for 10 ms).
test.runIf(process.env.STROBE_FIXTURE_SPIN)('warms', () => {})

test.runIf(process.env.STROBE_FIXTURE_SPIN)('spins', async () => {
  await new Promise((resolve) => setTimeout(resolve, 100))
  for (;;) {}
})
