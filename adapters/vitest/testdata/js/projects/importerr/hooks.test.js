import { beforeAll, describe, expect, test } from 'vitest'

describe('with a failing beforeAll', () => {
  beforeAll(() => {
    throw new Error('setup failed')
  })

  test('is not run', () => {
    expect(1).toBe(1)
  })
})
