import { existsSync, writeFileSync } from 'node:fs'
import { expect, test } from 'vitest'

// Passes: test.fails expects the failure.
test.fails('fails as declared', () => {
  expect(1).toBe(2)
})

test.fails('passes though declared to fail', () => {
  expect(1).toBe(1)
})

// Fails on its first try only (FLAKY_STATE names a file that does not
// exist yet): the config's retry passes it.
test('flaky', () => {
  const state = process.env.FLAKY_STATE
  if (state && !existsSync(state)) {
    writeFileSync(state, '1')
    expect('first try').toBe('second try')
  }
})
