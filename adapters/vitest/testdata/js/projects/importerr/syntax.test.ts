import { test } from 'vitest'

test('bad syntax', () => {
  const x: number = (1 +
})
