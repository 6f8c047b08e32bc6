import { expect, test } from 'vitest'

test('rejects once it returned', () => {
  Promise.reject(new Error('nobody handles me'))
})

test('runs next', async () => {
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(1).toBe(1)
})
