import { afterAll, beforeAll, describe, expect, test } from 'vitest'

// A describe block's hook fails: vitest fails the block, not a test.
describe('setup', () => {
  beforeAll(() => {
    throw new Error('setup failed')
  })

  test('reads', () => {
    expect(1).toBe(1)
  })

  describe('nested', () => {
    test('writes', () => {
      expect(2).toBe(2)
    })
  })
})

// A block whose name begins with the failing block's and a space: vitest's
// -t, over names joined by spaces, cannot tell it from setup's tests.
describe('setup extra', () => {
  test('runs', () => {
    expect(3).toBe(3)
  })
})

// A test whose name begins with another test's and a space.
test('adds', () => {
  expect(1 + 1).toBe(2)
})

test('adds wrongly', () => {
  expect(1 + 1).toBe(2)
})

describe('teardown', () => {
  afterAll(() => {
    throw new Error('teardown failed')
  })

  test('works', () => {
    expect(4).toBe(4)
  })
})

// A block named as another one, nested: not selected by the outer one's name.
describe('outer', () => {
  describe('setup', () => {
    test('reads', () => {
      expect(5).toBe(5)
    })
  })
})
