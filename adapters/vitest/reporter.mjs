// strobe's vitest reporter (vitest 3.x: the TestModule/TestCase reporter
// API). It writes one JSON line per event to events.jsonl beside this
// file: the lines of one turn of vitest's event loop in one write, at the
// end of that turn (see emit); a test's start is on disk before its body
// runs from the worker itself (setup.mjs), and a worker that dies takes
// none of these. It prints nothing: the tests' own output and vitest's
// errors keep stdout and stderr.
import { existsSync, openSync, readFileSync, writeSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { numbered, projectsEnv, selection, selects, tagged } from './select.mjs'

const eventsPath = fileURLToPath(new URL('./events.jsonl', import.meta.url))
const setupPath = fileURLToPath(new URL('./setup.mjs', import.meta.url))
const strobeDir = fileURLToPath(new URL('.', import.meta.url))

// Bounds on what one event carries: a test that logs without end, or a
// diff of two huge objects, must not make the events file as large.
const MAX_TEXT = 16 << 10
const MAX_LOG_PER_TEST = 256 << 10

// eslint-disable-next-line no-control-regex
const ansi = /\u001b\[[0-9;?]*[ -/]*[@-~]/g
const clean = (s) => (s == null ? '' : String(s).replace(ansi, ''))
const clip = (s) => (s.length > MAX_TEXT ? s.slice(0, MAX_TEXT) + '…' : s)

// A V8 frame: "    at fn (file:line:col)" or "    at file:line:col".
const frameRe = /^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/

// frames are the stack's V8 frames with their files as paths.
function* frames(stack) {
  for (const line of clean(stack).split('\n')) {
    const m = frameRe.exec(line)
    if (!m) continue
    let file = m[1]
    if (file.startsWith('file://')) {
      try { file = fileURLToPath(file) } catch { continue }
    }
    yield { file, line: Number(m[2]), col: Number(m[3]) }
  }
}

// where finds the frame of an error's stack to show: the first in the
// test file itself, else the first outside node_modules and node's own.
// vitest source-maps stacks, so a TypeScript file's line is its own.
function where(stack, testFile) {
  let fallback
  for (const loc of frames(stack)) {
    const file = loc.file
    if (file === testFile) return loc
    if (!fallback && !file.startsWith('node:') && !file.includes('/node_modules/') && file.startsWith('/')) fallback = loc
  }
  return fallback
}

// thrownAt is where in the project's own code an error was thrown when
// that is not the test file (a function of the library under test), as
// FILE:LINE from the project's root, else '': the failure is placed at the
// test's line, which called it, and the message says where it was thrown.
function thrownAt(stack, testFile) {
  for (const { file, line } of frames(stack)) {
    if (!file.startsWith('/') || file.includes('/node_modules/') || file.startsWith(strobeDir)) continue
    if (file === testFile) return ''
    const rel = relative(root, file)
    return rel.startsWith('..') ? '' : `${rel}:${line}`
  }
  return ''
}

// declared is where a test was written, for a failure whose error has
// no frame in the project (a test.fails that passed, an
// expect.assertions(n) unmet: vitest throws those from its own code):
// vitest's location when the config asks for it (includeTaskLocation),
// else the first line of the file that holds the test's title as a string.
const sources = new Map()
function declared(tc, file) {
  if (tc.location) return { file, line: tc.location.line, col: tc.location.column }
  if (!sources.has(file)) {
    try {
      sources.set(file, readFileSync(file, 'utf8').split('\n'))
    } catch {
      sources.set(file, null)
    }
  }
  const lines = sources.get(file)
  if (!lines) return undefined
  for (const q of ["'", '"', '`']) {
    const i = lines.findIndex((l) => l.includes(q + tc.name + q))
    if (i >= 0) return { file, line: i + 1, col: lines[i].search(/\S/) + 1 }
  }
  return undefined
}

// root is the project's root, which vitest 4's transform errors name
// their files relative to.
let root = process.cwd()

export function setRoot(dir) {
  if (dir) root = dir
}

export function describeError(err, testFile) {
  if (!err) return undefined
  const name = err.name && err.name !== 'AssertionError' && err.name !== 'Error' ? err.name + ': ' : ''
  const e = { message: clip(name + clean(err.message) + heldErrors(err.errors)) }
  if (err.diff) e.diff = clip(clean(err.diff))
  // A transform error has no frame in the file, only its place in the
  // message: esbuild's "/FILE:LINE:COL: ERROR: …", oxc's (vite 7, vitest
  // 4) "╭─[ FILE:LINE:COL ]" relative to the root, the error's id naming
  // the whole file.
  let loc = where(err.stack || err.stackStr, testFile)
  if (!loc) {
    const msg = clean(err.message)
    let m = /(?:^|[\s'"(])(\/[^\s:'"()]+):(\d+):(\d+)/m.exec(msg)
    if (m) loc = { file: m[1], line: Number(m[2]), col: Number(m[3]) }
    else if ((m = /╭─\[\s*([^\s\]]+?):(\d+):(\d+)\s*\]/.exec(msg))) {
      const id = err.__vitest_rollup_error__ && err.__vitest_rollup_error__.id
      const file = typeof id === 'string' && id.endsWith('/' + m[1]) ? id : resolve(root, m[1])
      loc = { file, line: Number(m[2]), col: Number(m[3]) }
    } else if (typeof (err.__vitest_rollup_error__ || {}).id === 'string' && err.__vitest_rollup_error__.id.startsWith('/')) {
      // A vite plugin failed on a module the test file imports: the
      // module is the error's id. The import analysis ("Failed to parse
      // source for import analysis") places it on line 1 whatever the
      // line (es-module-lexer gave up), so its place is not told.
      const re = err.__vitest_rollup_error__
      loc = { file: re.id, line: 0, col: 0 }
      if (re.loc && re.loc.line > 0 && re.plugin !== 'vite:import-analysis') loc = { file: re.id, line: re.loc.line, col: (re.loc.column || 0) + 1 }
    }
  }
  // vite names a module by its path from the root ("/src/lib.js": "At
  // file: /src/lib.js:10:23"), which looks absolute.
  if (loc && !existsSync(loc.file) && existsSync(resolve(root, '.' + loc.file))) loc.file = resolve(root, '.' + loc.file)
  if (loc) Object.assign(e, loc)
  // A snapshot matcher's failure: one that did not match, or one that
  // was new where vitest writes none (CI): it has no snapshot to diff.
  const m = /^Snapshot `.*` mismatched$|^Snapshot properties mismatched$/.exec(e.message)
  if (m) {
    const none = err.expected === undefined || err.expected === 'undefined'
    e.snapshot = none && !err.diff ? 'new' : 'mismatch'
    if (e.snapshot === 'new' && err.actual !== undefined) e.received = clip(clean(err.actual))
  }
  if (loc && loc.file === testFile) {
    const at = thrownAt(err.stack || err.stackStr, testFile)
    if (at) e.message = clip(`${e.message}\n(thrown at ${at})`)
  }
  return e
}

// heldErrors says the errors an AggregateError holds (Promise.any), which
// vitest's report of it leaves out: at most 5, the rest counted.
function heldErrors(errors) {
  if (!Array.isArray(errors) || !errors.length) return ''
  const lines = errors.slice(0, 5).map((e) => `  ${(e && e.name) || 'Error'}: ${String(e && e.message !== undefined ? e.message : e).split('\n')[0]}`)
  if (errors.length > 5) lines.push(`  and ${errors.length - 5} more`)
  return `\n\nits errors:\n${lines.join('\n')}`
}

// unreadableSnapshots tells whether a test file's snapshot file is there
// but does not parse, as vitest evaluates it (it reads such a file as
// empty, every snapshot in it new, without a word): {snapFile,
// snapError}, else undefined.
const snapshotFiles = new Map()
export function unreadableSnapshots(vitest, file) {
  if (snapshotFiles.has(file)) return snapshotFiles.get(file)
  let bad
  try {
    const snap = vitest.snapshot.resolvePath(file, { config: vitest.config })
    const text = readFileSync(snap, 'utf8')
    try {
      // eslint-disable-next-line no-new-func
      new Function('exports', text)(Object.create(null))
    } catch (err) {
      bad = { snapFile: snap, snapError: String((err && err.name ? err.name + ': ' : '') + (err && err.message)).slice(0, 300) }
    }
  } catch {
    // no snapshot file (or none vitest's resolver names): new indeed
  }
  snapshotFiles.set(file, bad)
  return bad
}

export default class StrobeReporter {
  constructor() {
    this.fd = openSync(eventsPath, 'a')
    this.tests = new Map() // TestCase id → { file, name, logged }
    this.pattern = undefined
    this.reported = new Set() // projects' modules whose errors were written
    this.names = new Map() // project and module id → (TestCase id → its name in strobe's answer)
    this.specs = 0 // test files the run was to run
    this.startedModules = new Set() // and those it began
    this.pending = '' // lines not yet written
    this.flushing = false
    this.flush = this.flush.bind(this)
    process.on('exit', this.flush)
  }

  // emit writes an event at the end of this turn of the event loop, with
  // the others of the turn: vitest hands the reporter a worker's results
  // in bursts, and a write each (four lines a test with the setup file's)
  // was most of what the reporter cost vitest's process on 64,000 quick
  // tests. This process runs no test (the workers do), so the turn ends.
  emit(ev) {
    this.pending += JSON.stringify(ev) + '\n'
    if (this.pending.length >= 1 << 20) this.flush()
    else if (!this.flushing) {
      this.flushing = true
      setImmediate(this.flush)
    }
  }

  flush() {
    this.flushing = false
    if (!this.pending) return
    const lines = this.pending
    this.pending = ''
    writeSync(this.fd, lines)
  }

  onInit(vitest) {
    this.vitest = vitest
    const cfg = vitest.config
    setRoot(cfg.root)
    this.pattern = cfg.testNamePattern
    // The workers write each test's start themselves (setup.mjs): the
    // projects' configs are not yet sent to them.
    const projects = vitest.projects || []
    // Several projects may run a test file each: the tests' names carry
    // their project's (select.mjs), in the workers too, which start after
    // this and inherit the environment.
    if (projects.length > 1) process.env[projectsEnv] = '1'
    for (const project of projects) {
      const files = project.config.setupFiles
      if (Array.isArray(files) && !files.includes(setupPath)) files.push(setupPath)
      // A browser-like environment (jsdom, happy-dom) loads modules as
      // vite serves them, and vite serves no file outside server.fs.allow:
      // strobe's directory is let in, or the setup file fails every test
      // file there.
      const fs = project.vite && project.vite.config.server && project.vite.config.server.fs
      if (fs && Array.isArray(fs.allow) && !fs.allow.includes(strobeDir)) fs.allow.push(strobeDir)
    }
    const ev = { ev: 'run', version: vitest.version, pool: cfg.pool, root: cfg.root }
    // --sequence.shuffle (or shuffle: true in the config): the seed that
    // orders the files and each file's tests, which only vitest's default
    // reporter prints ("Running tests with seed"). vitest 3.2 draws none
    // for the config's shuffle: { tests: true }, and shuffles each file's
    // tests with one of its own, never told: strobe draws it, as vitest
    // does for --sequence.shuffle, so that the order can be run again.
    const seq = cfg.sequence || {}
    if (seq.shuffle && seq.seed == null) {
      seq.seed = Date.now()
      for (const project of projects) {
        const ps = project.config.sequence
        if (ps && ps.shuffle && ps.seed == null) ps.seed = seq.seed
      }
    }
    if (seq.shuffle && seq.seed != null) ev.seed = String(seq.seed)
    this.emit(ev)
  }

  onTestRunStart(specifications) {
    const files = new Set((specifications || []).map((s) => s.moduleId))
    this.specs = files.size
    this.emit({ ev: 'specs', files: this.specs })
    // Outside CI (and with -u) vitest writes snapshots: a snapshot file
    // that does not parse, read as empty, is written over without a word
    // once its test file has run. Its files are read now, before any is.
    const opts = this.vitest && this.vitest.config && this.vitest.config.snapshotOptions
    if (opts && opts.updateSnapshot && opts.updateSnapshot !== 'none') {
      for (const file of files) {
        const bad = unreadableSnapshots(this.vitest, file)
        if (bad) this.emit({ ev: 'badsnap', file, ...bad })
      }
    }
  }

  // A module's tests, once collected, that the run is to report (those
  // strobe's selection leaves out are not): a run strobe stops says how
  // many of them never ran, which no event names.
  onTestModuleCollected(mod) {
    let n = 0
    for (const tc of mod.children.allTests()) if (!this.filtered(tc)) n++
    this.emit({ ev: 'collected', file: mod.moduleId, tests: n })
  }

  onTestModuleStart(mod) {
    this.startedModules.add(mod.moduleId)
    this.emit({ ev: 'module', file: mod.moduleId })
  }

  onTestCaseReady(tc) {
    if (this.filtered(tc)) return
    const t = this.tests.get(tc.id) || { file: tc.module.moduleId, name: this.nameOf(tc), logged: 0 }
    this.tests.set(tc.id, t)
    this.emit({ ev: 'start', file: t.file, name: t.name })
  }

  onTestCaseResult(tc) {
    const r = tc.result()
    const file = tc.module.moduleId
    if (this.filtered(tc)) return
    const ev = { ev: 'end', file, name: this.nameOf(tc), status: r.state }
    if (process.env[projectsEnv]) ev.project = tc.project.name
    if (ev.name !== tc.fullName) ev.title = tc.fullName
    if (tc.options.mode === 'todo') ev.todo = true
    const d = tc.diagnostic()
    if (d) ev.ms = d.duration
    if (r.state === 'skipped' && r.note) ev.note = clip(clean(r.note))
    if (r.errors && r.errors.length) {
      ev.error = describeError(r.errors[0], file)
      if (ev.error.line === undefined) Object.assign(ev.error, declared(tc, file))
      ev.more = r.errors.slice(1).map((e) => describeError(e, file))
      if (ev.error.snapshot === 'new' && this.vitest) {
        const bad = unreadableSnapshots(this.vitest, file)
        if (bad) Object.assign(ev.error, bad)
      }
    }
    this.emit(ev)
  }

  // nameOf is a test's name in strobe's answer: its full name, made unique
  // in its file. vitest lets tests share one (rows of test.each that print
  // alike, a title repeated), which the answer would count as one test; the
  // second is "NAME #2", the third "NAME #3", in the order the file
  // declares them, as setup.mjs names them in the worker.
  nameOf(tc) {
    const key = tc.project.name + '\0' + tc.module.moduleId
    let names = this.names.get(key)
    if (!names) {
      names = new Map()
      const seen = new Map()
      const used = new Set()
      for (const t of tc.module.children.allTests()) {
        names.set(t.id, tagged(numbered(seen, used, t.fullName), tc.project.name))
      }
      this.names.set(key, names)
    }
    return names.get(tc.id) || tagged(tc.fullName, tc.project.name)
  }

  // filtered tells whether vitest's -t left a test out: vitest reports it
  // as skipped, but it was not asked for. With strobe's selection, a test
  // it does not take (-t let it through, strobe's setup file skipped it).
  filtered(tc) {
    if (selection) return !selects(tc.module.moduleId, tc.fullName, this.nameOf(tc))
    return this.pattern && tc.options.mode === 'skip' && !this.matches(tc)
  }

  // matches tells whether vitest's name filter selects a test: the names
  // from the outermost describe joined by spaces, as vitest matches them.
  matches(tc) {
    const names = []
    for (let t = tc; t && t.type !== 'module'; t = t.parent) names.unshift(t.name)
    const re = this.pattern instanceof RegExp ? this.pattern : new RegExp(this.pattern)
    return re.test(names.join(' '))
  }

  onTestSuiteResult(suite) {
    const errs = suite.errors()
    if (errs.length) {
      const file = suite.module.moduleId
      this.emit({ ev: 'suite_error', file, name: suite.fullName, error: describeError(errs[0], file) })
    }
  }

  onTestModuleEnd(mod) {
    this.moduleErrors(mod)
    this.emit({ ev: 'module_end', file: mod.moduleId })
  }

  // moduleErrors reports a test file that failed to load (a missing
  // import, a syntax error, a throw at its top level), once: vitest may
  // end such a module without onTestModuleEnd.
  moduleErrors(mod) {
    // Each project's run of a file is a module of its own.
    const key = mod.project.name + '\0' + mod.moduleId
    if (this.reported.has(key)) return
    this.reported.add(key)
    for (const err of mod.errors()) {
      this.emit({ ev: 'module_error', file: mod.moduleId, error: describeError(err, mod.moduleId) })
    }
  }

  onUserConsoleLog(log) {
    // The log may come before its test's onTestCaseReady: vitest's state
    // knows the test by then.
    const t = log.taskId && (this.tests.get(log.taskId) || this.lookup(log.taskId))
    if (!t) {
      this.emit({ ev: 'log', stream: log.type, text: clip(clean(log.content)) })
      return
    }
    if (t.logged >= MAX_LOG_PER_TEST) return
    let text = String(log.content)
    t.logged += text.length
    if (t.logged >= MAX_LOG_PER_TEST) text = text.slice(0, MAX_LOG_PER_TEST) + '\n[strobe: more output cut]\n'
    this.emit({ ev: 'log', file: t.file, name: t.name, stream: log.type, text })
  }

  lookup(id) {
    const task = this.vitest && this.vitest.state.idMap.get(id)
    const tc = task && this.vitest.state.getReportedEntity(task)
    if (!tc || tc.type !== 'test') return undefined
    const t = { file: tc.module.moduleId, name: this.nameOf(tc), logged: 0 }
    this.tests.set(id, t)
    return t
  }

  // snapshots says what the run did to snapshot files, which vitest's
  // console reporter (off) summed up: those it wrote (new ones, outside
  // CI; all with -u), updated and removed, and the obsolete ones (keys no
  // test took), for which vitest does not fail the run.
  snapshots() {
    const s = this.vitest && this.vitest.snapshot && this.vitest.snapshot.summary
    if (!s) return
    const removed = s.didUpdate ? (s.unchecked || 0) + (s.filesRemoved || 0) : 0
    const obsolete = []
    if (!s.didUpdate) {
      for (const u of s.uncheckedKeysByFile || []) {
        for (const key of u.keys || []) obsolete.push({ file: u.filePath, key })
      }
    }
    if (!s.added && !s.updated && !removed && !obsolete.length) return
    this.emit({ ev: 'snapshots', added: s.added || 0, updated: s.updated || 0, removed, obsolete: obsolete.slice(0, 50), obsoleteCount: obsolete.length })
  }

  onTestRunEnd(modules, errors, reason) {
    for (const mod of modules) this.moduleErrors(mod)
    for (const err of errors) {
      // vitest names the test file an error outside any test came from
      // while it ran (a promise rejected and never handled), and the test
      // that ran then or last.
      const file = typeof err.VITEST_TEST_PATH === 'string' ? err.VITEST_TEST_PATH : ''
      const ev = { ev: 'unhandled', error: describeError(err, file), kind: err.type || err.name || '' }
      if (file) ev.file = file
      if (typeof err.VITEST_TEST_NAME === 'string') ev.title = err.VITEST_TEST_NAME
      this.emit(ev)
    }
    this.snapshots()
    const ev = { ev: 'end_run', reason }
    if (reason === 'interrupted') {
      // vitest cancelled the run (--bail: the worker asks it to once
      // that many tests failed): the tests it reported "pending" never
      // ran, and the files it never began have tests nobody counted.
      ev.bail = Number(this.vitest && this.vitest.config && this.vitest.config.bail) || 0
      ev.notRun = 0
      for (const mod of modules) {
        for (const tc of mod.children.allTests()) {
          if (tc.result().state === 'pending' && !this.filtered(tc)) ev.notRun++
        }
      }
      ev.files = this.specs
      ev.filesNotRun = Math.max(0, this.specs - this.startedModules.size)
    }
    this.emit(ev)
    this.flush()
  }
}
