import { test, expect } from 'vitest'

test('adds', () => {
  expect(1 + 1).toBe(2)
})

test('carries', () => {
  expect(9 + 1).toBe(11)
})
