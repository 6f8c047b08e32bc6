import { describe, expect, test } from 'vitest'

describe('strings', () => {
  test('upper', () => {
    console.log('upper says hi')
    expect('a'.toUpperCase()).toBe('A')
  })

  test.skip('skipped for now', () => {
    expect(1).toBe(2)
  })

  test.todo('write this one')

  test('name with (regex) chars [x] * + ?', () => {
    expect('x').toBe('x')
  })

  test('throws', () => {
    throw new TypeError('boom from a test')
  })
})

test('top level', () => {
  expect(true).toBe(true)
})
