import { test, expect } from 'vitest'

test('first passes', () => {
  expect(1).toBe(1)
})

test('second fails', () => {
  expect(2).toBe(3)
})

test('third never runs', () => {
  expect(3).toBe(3)
})
