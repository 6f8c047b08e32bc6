// Snapshots that do not match (the stored ones, in __snapshots__, were
// written for other values), a new one, and an obsolete one. Under CI
// vitest writes nothing here.
import { expect, test } from 'vitest'

test('matches', () => {
  expect({ a: 1 }).toMatchSnapshot()
})

test('mismatch', () => {
  const config = {}
  for (let i = 0; i < 30; i++) config['key' + i] = i
  expect(config).toMatchSnapshot()
})

test('inline mismatch', () => {
  expect({ x: 2 }).toMatchInlineSnapshot(`
    {
      "x": 1,
    }
  `)
})

test('throws', () => {
  expect(() => {
    throw new Error('boom now')
  }).toThrowErrorMatchingSnapshot()
})

test('new one', () => {
  expect('fresh').toMatchSnapshot()
})
