import { describe, expect, test } from 'vitest'

test('adds', () => {
  expect(1 + 1).toBe(2)
})

describe('globals', () => {
  test('has no window', () => {
    expect(typeof window).toBe('undefined')
  })
})
