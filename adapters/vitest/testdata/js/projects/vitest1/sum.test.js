import { describe, test, expect } from 'vitest'

test('adds', () => {
  expect(1 + 1).toBe(2)
})

describe('carry', () => {
  test('tens', () => {
    expect(9 + 1).toBe(11)
  })
})
