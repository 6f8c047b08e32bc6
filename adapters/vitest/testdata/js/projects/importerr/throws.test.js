import { test } from 'vitest'

throw new Error('the module throws while loading')

test('unreached', () => {})
