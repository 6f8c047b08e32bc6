import { test, expect } from 'vitest'

test('in another file', () => {
  expect(4).toBe(4)
})

test('also in another file', () => {
  expect(5).toBe(5)
})
