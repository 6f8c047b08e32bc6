// strobe's vitest setup file, added by strobe's reporter to every
// project's setupFiles. It runs in the workers and writes each test's
// start to the events file itself, synchronously, before the test's body:
// vitest sends its own start events from the workers throttled, and can
// hold the last one back while a test hangs, so the stuck detector would
// not know which test is running. Its end is written the same way (the
// reporter's end, with the failure's details, follows when vitest sends
// it), once it is the test's: not a try vitest retries. In a run that
// selects tests by name, it also skips those vitest's -t let through but
// strobe's selection does not take (see select.mjs), before the file's
// tests run.
import { closeSync, openSync, writeSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { numbered, selection, selects, tagged } from './select.mjs'

// In a browser-like environment (jsdom, happy-dom) vite serves this file by
// URL, /@fs/ and its path, not as a file: URL.
function here(name) {
  const url = new URL(name, import.meta.url)
  if (url.protocol === 'file:') return fileURLToPath(url)
  return decodeURIComponent(url.pathname.replace(/^\/@fs(?=\/)/, ''))
}

const eventsPath = here('./events.jsonl')

// The events file stays open while the file's tests run: opening it for
// each event (appendFileSync) made a run of 64,000 quick tests take twice
// as long. Each line still reaches the file as it is written (O_APPEND,
// one write, no buffer), and the file is closed after the test file's
// tests, which each load this module anew (a worker thread would keep a
// descriptor per test file).
let fd

function write(ev) {
  try {
    if (fd === undefined) fd = openSync(eventsPath, 'a')
    writeSync(fd, JSON.stringify(ev) + '\n')
  } catch {
    // The run goes on without the worker's events.
  }
}

afterAll(() => {
  if (fd === undefined) return
  try {
    closeSync(fd)
  } catch {
    // already closed
  }
  fd = undefined
})

function fullName(task) {
  const names = []
  for (let t = task; t && t !== task.file; t = t.suite) {
    // vitest 1's file-level block, unnamed, holds every test of the file.
    if (t.name === '' && !t.suite) continue
    names.unshift(t.name)
  }
  return names.join(' > ')
}

// names holds, for each file, its tests' names in strobe's answer: the full
// name, the second test of a name "NAME #2", and so on in the order the file
// declares them, the project's name after it when the run has several
// (the reporter's nameOf names them alike).
const names = new WeakMap()

function nameOf(task) {
  let m = names.get(task.file)
  if (!m) {
    m = new Map()
    const seen = new Map()
    const used = new Set()
    const walk = (tasks) => {
      for (const t of tasks) {
        if (t.type === 'suite') {
          walk(t.tasks)
          continue
        }
        m.set(t.id, tagged(numbered(seen, used, fullName(t)), task.file.projectName))
      }
    }
    walk(task.file.tasks)
    names.set(task.file, m)
  }
  return m.get(task.id) || tagged(fullName(task), task.file.projectName)
}

beforeEach((ctx) => {
  const task = ctx.task
  const file = task.file.filepath
  const name = nameOf(task)
  const title = fullName(task)
  const ev = { ev: 'start', file, name, pid: process.pid }
  if (title !== name) ev.title = title // vitest's own name, for the rest of a stopped run
  write(ev)
  if (typeof ctx.onTestFinished !== 'function') return // vitest before 1.3: the reporter's end says
  // vitest makes an Error for each hook registered, its stack for the
  // message of a hook that times out: most of what this file cost a run
  // of 64,000 quick tests. This one never waits on anything.
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    ctx.onTestFinished(finished)
  } finally {
    Error.stackTraceLimit = limit
  }
  function finished() {
    let state = task.result ? task.result.state : ''
    // This try's end is not the test's when vitest tries again (the
    // retry option) or turns the result over (test.fails), which it does
    // after this hook: the reporter's end says then.
    if (state === 'fail' && (task.result.retryCount || 0) < (task.retry || 0)) return
    if (task.fails) state = state === 'pass' ? 'fail' : state === 'fail' ? 'pass' : state
    const done = { ev: 'done', file, name, state }
    if (title !== name) done.title = title
    // The failure's words: vitest sends its details later, in a batch a
    // run stopped at a hang after this test never gets.
    const err = state === 'fail' && task.result.errors && task.result.errors[0]
    if (err) {
      const kind = err.name && err.name !== 'AssertionError' && err.name !== 'Error' ? err.name + ': ' : ''
      done.error = { message: String(kind + (err.message ?? err)).slice(0, 8192) }
      if (typeof err.diff === 'string') done.error.diff = err.diff.slice(0, 8192)
    }
    write(done)
  }
})

// narrow skips the tests of a file that the run's selection does not take,
// and the describe blocks left with none, so that their hooks do not run
// either; vitest skips what its -t leaves out alike. It runs as the file's
// first beforeAll hook: the tests are collected and -t applied, none ran.
function narrow(file) {
  const walk = (suite) => {
    let any = false
    for (const t of suite.tasks) {
      const live = t.mode === 'run' || t.mode === 'queued'
      if (t.type === 'suite') {
        if (walk(t)) any = true
        else if (live) t.mode = 'skip'
        continue
      }
      if (!live) continue
      if (selects(file.filepath, fullName(t), nameOf(t))) any = true
      else t.mode = 'skip'
    }
    return any
  }
  walk(file)
}

// The hook's suite is its first argument under vitest 3, its second under
// vitest 4 (the first is a fixture context, and a function that names its
// arguments must destructure it): read them without naming them.
if (selection) {
  beforeAll(function () {
    for (const arg of arguments) {
      if (arg && arg.type === 'suite' && Array.isArray(arg.tasks)) return narrow(arg.file || arg)
    }
  })
}
