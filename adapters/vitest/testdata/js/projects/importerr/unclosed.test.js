import { test, expect } from 'vitest'
import { bump } from './src/unclosed.js'

test('bumps', () => expect(bump(1, 1)).toBe(2))
