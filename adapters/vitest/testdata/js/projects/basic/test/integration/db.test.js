import { expect, test } from 'vitest'

test('connects', async () => {
  await new Promise((r) => setTimeout(r, 10))
  expect(1 + 1).toBe(2)
})
