import { describe, expect, test } from 'vitest'

// Tests that share a full name, as real projects have them: test.each rows
// that print alike, and a title repeated.
describe('withQuery', () => {
  test.each([
    [{ a: 1 }, 'a=1'],
    [{ a: 1 }, 'a=2'],
  ])('%s', (input, want) => {
    expect(new URLSearchParams(input).toString()).toBe(want)
  })
})

test('same title', () => {})
test('same title', () => {})
test('same title', () => {})

// A test whose own title is the name strobe gives the second "same title".
test('same title #2', () => {})
