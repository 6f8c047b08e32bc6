// Order-dependent tests: "b reads a clean counter" fails when "a bumps the
// counter" ran before it in the same file, as it may under
// --sequence.shuffle; in the order written, and alone, it passes.
import { expect, test } from 'vitest'

let counter = 0

test('b reads a clean counter', () => {
  expect(counter).toBe(0)
})

test('a bumps the counter', () => {
  counter++
  expect(counter).toBeGreaterThan(0)
})

test('c does nothing', () => {})

test('d does nothing', () => {})
