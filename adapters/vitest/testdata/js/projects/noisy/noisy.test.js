import { test } from 'vitest'

// About 200 MB of output: 20 MB through the console (which vitest carries
// to its main process, and strobe's reporter keeps a bounded part of per
// test) and 180 MB written straight to stdout.
test('prints a lot', () => {
  const line = 'x'.repeat(1023)
  for (let i = 0; i < 20 * 1024; i++) console.log(line)
  const chunk = (line + '\n').repeat(1024)
  for (let i = 0; i < 180; i++) process.stdout.write(chunk)
}, 120_000)

test('after the noise', () => {})
