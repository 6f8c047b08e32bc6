import { test } from 'vitest'

test('quick', () => {})

// A promise that never settles while a timer keeps the event loop alive;
// the test timeout is off so only strobe can end it.
test('waits forever', async () => {
  setInterval(() => {}, 1000)
  await new Promise(() => {})
}, 0)

// Never reached: a run stopped at the hang says it did not run.
test('after', () => {})
