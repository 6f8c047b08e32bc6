import { expect, test } from 'vitest'

test('still runs', () => {
  expect(1).toBe(1)
})
