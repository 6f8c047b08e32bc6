// strobe's reporter for vitest 1.x and 2.x, beside vitest's JSON reporter:
// those have no onTestCaseResult, and their JSON report comes only at the
// end, so a run strobe stops (a test stuck, the timeout) had no result at
// all. It adds strobe's setup file to every project, which writes each
// test's start and end from the worker, synchronously (setup.mjs), and it
// writes each test's end with its failure to events.jsonl beside this
// file as vitest learns of it (onTaskUpdate: the workers send their
// tests' results in batches), in the events reporter.mjs writes. The JSON
// report, when there is one, is the run's record; these stand for a run
// that has none.
import { openSync, writeSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describeError, setRoot, unreadableSnapshots } from './reporter.mjs'

const eventsPath = fileURLToPath(new URL('./events.jsonl', import.meta.url))
const setupPath = fileURLToPath(new URL('./setup.mjs', import.meta.url))
const strobeDir = fileURLToPath(new URL('.', import.meta.url))

export default class StrobeLegacyReporter {
  constructor() {
    this.fd = openSync(eventsPath, 'a')
    this.ended = new Set() // tests whose end was written
  }

  onInit(ctx) {
    this.ctx = ctx
    setRoot(ctx.config && ctx.config.root)
    // The workers get each project's config when they start, after this.
    for (const project of ctx.projects || []) {
      const files = project.config && project.config.setupFiles
      if (Array.isArray(files) && !files.includes(setupPath)) files.push(setupPath)
      const server = project.server || (project.vite && project.vite.config && project.vite)
      const fs = server && server.config && server.config.server && server.config.server.fs
      if (fs && Array.isArray(fs.allow) && !fs.allow.includes(strobeDir)) fs.allow.push(strobeDir)
    }
  }

  // Outside CI (and with -u) vitest writes over a snapshot file that does
  // not parse, once its test file has run: its files are read before any
  // runs, as reporter.mjs reads them for vitest 3.
  onPathsCollected(paths) {
    const opts = this.ctx && this.ctx.config && this.ctx.config.snapshotOptions
    if (!opts || !opts.updateSnapshot || opts.updateSnapshot === 'none') return
    for (const file of paths || []) {
      const bad = unreadableSnapshots(this.ctx, file)
      if (bad) this.write({ ev: 'badsnap', file, ...bad })
    }
  }

  write(ev) {
    try {
      writeSync(this.fd, JSON.stringify(ev) + '\n')
    } catch {
      // the events file is strobe's to read; the JSON report stays
    }
  }

  onTaskUpdate(packs) {
    const state = this.ctx && this.ctx.state
    if (!state || !state.idMap) return
    for (const [id, result] of packs) {
      const task = state.idMap.get(id)
      if (!task || task.type !== 'test' || !result || this.ended.has(id)) continue
      const file = task.file && task.file.filepath
      if (!file) continue
      const ev = { ev: 'end', file, name: fullName(task), ms: result.duration || 0 }
      // A failed try that vitest retries, and a test.fails test's result
      // before vitest turns it over, are not the test's end: the setup
      // file's and the JSON report's say it.
      if ((result.state === 'fail' && (result.retryCount || 0) < (task.retry || 0)) || task.fails) continue
      if (result.state === 'pass') ev.status = 'passed'
      else if (result.state === 'fail') {
        ev.status = 'failed'
        const errors = result.errors || []
        ev.error = describeError(errors[0], file)
      } else continue // running, or skipped (-t's left out among them): the JSON report says
      this.ended.add(id)
      this.write(ev)
    }
  }
}

// fullName is a test's name as its JSON report gives it (see
// assertionName): its blocks' titles and its own, joined by " > ", the
// empty ones (vitest 1's file-level block) left out.
function fullName(task) {
  const parts = [task.name]
  for (let s = task.suite; s; s = s.suite) {
    if (s.name) parts.unshift(s.name)
  }
  return parts.join(' > ')
}
