import { expect, test } from 'vitest'

// vitest throws the unmet count from its own code: no frame in this file.
test('expects two assertions', () => {
  expect.assertions(2)
  expect(1).toBe(1)
})
