import { describe, expect, test } from 'vitest'

// A block that shares its name with hooks.test.js's, in another file.
describe('setup', () => {
  test('reads', () => {
    expect(6).toBe(6)
  })
})
