// Its snapshot file does not parse (a merge gone wrong): vitest reads it
// as empty, and each snapshot counts as new.
import { expect, test } from 'vitest'

test('stored', () => {
  expect('kept').toMatchSnapshot()
})
