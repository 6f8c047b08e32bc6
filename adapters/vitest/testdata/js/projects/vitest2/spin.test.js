import { test } from 'vitest'

// Spins only when asked (STROBE_FIXTURE_SPIN=1): the stuck detector's case.
test.runIf(process.env.STROBE_FIXTURE_SPIN)('spins', () => {
  for (;;) {}
})
