import { describe, expect, it } from 'vitest'
import { add } from '../../src/math'

interface Pair {
  a: number
  b: number
}

describe('math', () => {
  it('adds', () => {
    const p: Pair = { a: 1, b: 2 }
    expect(add(p.a, p.b)).toBe(3)
  })

  it('adds wrongly', () => {
    const p: Pair = { a: 2, b: 2 }
    expect(add(p.a, p.b)).toBe(5)
  })

  describe('objects', () => {
    it('compares deeply', () => {
      expect({ name: 'strobe', tags: ['a', 'b'] }).toEqual({ name: 'strobe', tags: ['a', 'c'] })
    })
  })
})
