import { test, expect } from 'vitest'
import { covered } from '../src/half.js'

test('covered', () => {
  expect(covered()).toBe(1)
})
