import { test } from 'vitest'

test('before the crash', () => {})

test('aborts the process', () => {
  process.abort()
})
