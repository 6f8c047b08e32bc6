// strobe's vitest setup file, added by strobe's reporter to every
// project's setupFiles. It runs in the workers and writes each test's
// start to the events file itself, synchronously, before the test's body:
// vitest sends its own start events from the workers throttled, and can
// hold the last one back while a test hangs, so the stuck detector would
// not know which test is running. Its end is written the same way (the
// reporter's end, with the failure's details, follows when vitest sends
// it).
import { appendFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { beforeEach } from 'vitest'

const eventsPath = fileURLToPath(new URL('./events.jsonl', import.meta.url))

function write(ev) {
  try {
    appendFileSync(eventsPath, JSON.stringify(ev) + '\n')
  } catch {
    // The run goes on without the worker's events.
  }
}

beforeEach((ctx) => {
  const task = ctx.task
  const names = []
  for (let t = task; t && t !== task.file; t = t.suite) names.unshift(t.name)
  const file = task.file.filepath
  const name = names.join(' > ')
  write({ ev: 'start', file, name, pid: process.pid })
  ctx.onTestFinished(() => {
    write({ ev: 'done', file, name, state: task.result ? task.result.state : '' })
  })
})
