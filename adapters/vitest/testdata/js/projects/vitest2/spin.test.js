import { test } from 'vitest'

// Run only when asked (STROBE_FIXTURE_SPIN=1): the stuck detector's case.
// A test passes, then one spins at once: vitest 2 sends results when its
// worker is idle for 10 ms, and never sent the first one's.
test.runIf(process.env.STROBE_FIXTURE_SPIN)('warms', () => {})

test.runIf(process.env.STROBE_FIXTURE_SPIN)('spins', () => {
  for (;;) {}
})
