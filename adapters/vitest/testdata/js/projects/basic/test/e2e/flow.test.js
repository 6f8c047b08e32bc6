import { expect, test } from 'vitest'

test('flows end to end', () => {
  expect([1, 2, 3]).toHaveLength(3)
})
