// strobe's jest reporter: one JSON line per event, appended to the file
// named by STROBE_JEST_EVENTS, which strobe reads as it grows. It runs in
// jest's main process (reporters always do), so it sees the events of
// every worker in the order jest received them; writing to a file rather
// than stdout keeps the tests' own output from mixing with the events.
//
// Events (field "ev"):
//   run      the run begins: jest's version, the number of test files,
//            and under --randomize (jest >= 29.2) the seed that orders
//            each file's tests, which jest prints only in the summary
//            strobe's reporter replaces
//   file     a test file begins
//   worker   the process that runs a test file says so (pid), from
//            strobe's setup file there (worker.cjs)
//   fileDone a test file's result came
//   start    a test begins (jest >= 29.6: onTestCaseStart), with its
//            project and jest's own name (title) as end has them
//   end      a test ended: status passed|failed|skipped|todo, duration,
//            the failure message without colours and where it happened
//            (for a snapshot jest took for new, the snapshot file when it
//            does not parse: snapFile, snapError), and, under several
//            projects, the project that ran it (sent when its file ends:
//            see onTestCaseResult)
//   suite    a test file failed to run (import, syntax, worker crash), or
//            failed outside its tests once they ran (an afterAll that
//            threw): "ran" counts its tests that passed or failed
//   done     the run ended, with jest's totals, the obsolete snapshots
//            (keys no test took, files no test file has) for which jest
//            fails the run, the snapshots it wrote (written: added,
//            updated, removed, when the command asked for -u), and bail
//            when --bail ended it early
//
// A test's name is its describe blocks and its title joined with " › ",
// as jest's own reporters show it, and, under a config of several
// projects, its project's displayName: "NAME [one]". Locations are absolute paths, 1-based
// lines, taken from the failure's stack: the first frame in the test file,
// else the first one outside node_modules and node's internals. jest
// source-maps those stacks, so a TypeScript test's frame is its .ts line.
'use strict';

const fs = require('fs');
const path = require('path');

const SEP = ' \u203a ';
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
const FRAME = /^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/;
const ANY_FRAME = /^\s*at /;
// MAX_MESSAGE bounds a failure's text: a diff of two huge objects would
// otherwise make one event of megabytes. strobe keeps less still.
const MAX_MESSAGE = 16384;

class StrobeReporter {
  constructor(globalConfig) {
    this.fd = null;
    this.path = process.env.STROBE_JEST_EVENTS;
    this.rootDir = (globalConfig && globalConfig.rootDir) || process.cwd();
    // jest reports the tests -t filtered out as skipped; they were not
    // asked for, so they are left out. jest matches the pattern against
    // the titles joined with spaces, case-insensitively.
    // In strobe's collect mode (listing the tests), the pattern matches
    // none and every test is reported.
    const pattern = !process.env.STROBE_JEST_COLLECT && globalConfig && globalConfig.testNamePattern;
    this.selected = pattern ? new RegExp(pattern, 'i') : null;
    // A run that selects a test or a describe block by name: that -t
    // also lets through tests whose names begin as the name does, which
    // strobe's setup file (select.cjs) skips and the reporter leaves out.
    this.only = process.env.STROBE_JEST_SELECT || '';
    // Tests already reported by onTestCaseResult, per file, each name's
    // end events in order: the file's result lists them again, with the
    // skipped and todo ones jest never reports one by one, and with a
    // failure jest found after a test's own end.
    this.ended = new Map();
    // --bail N: jest ends the run once N tests failed (onRunComplete,
    // then exit), whatever test files have yet to run.
    this.bail = (globalConfig && globalConfig.bail) || 0;
    // A config of several projects may run a file in more than one of
    // them: each test's name then ends with its project's (displayName),
    // "NAME [one]", so that the copies are apart whichever ends first.
    // running holds, per file, the projects running it.
    this.projects = !!(globalConfig && Array.isArray(globalConfig.projects) && globalConfig.projects.length > 1);
    this.running = new Map();
    // How many tests of each name began and ended, per file (and project):
    // tests may share a full name (rows of test.each that print alike, a
    // title repeated), which strobe would count as one; the second is
    // "NAME #2", the third "NAME #3", in the order they run.
    this.starts = new Map();
    this.ends = new Map();
    // --randomize (or randomize in the config): the run's seed, given or
    // drawn (a 32-bit integer, maybe negative).
    this.seed = globalConfig && globalConfig.randomize && globalConfig.seed !== undefined ? String(globalConfig.seed) : '';
    // The command's -u: jest writes every snapshot its tests take, over a
    // snapshot file that does not parse too (read as empty, without a
    // word). Each test file's is read before the file runs.
    this.update = !!(globalConfig && globalConfig.updateSnapshot === 'all');
  }

  emit(obj) {
    if (!this.path) return;
    if (this.fd === null) this.fd = fs.openSync(this.path, 'a');
    // Synchronous, so that a test's start is in the file before its body
    // runs long, and nothing is lost if the process dies next.
    fs.writeSync(this.fd, JSON.stringify(obj) + '\n');
  }

  onRunStart(results) {
    let version = '';
    for (const pkg of ['jest/package.json', '@jest/core/package.json']) {
      try {
        version = require(require.resolve(pkg, {paths: [this.rootDir]})).version;
        break;
      } catch (_) {
        // not installed under that name
      }
    }
    const ev = {ev: 'run', total: results.numTotalTestSuites, version};
    if (this.seed) ev.seed = this.seed;
    this.emit(ev);
  }

  onTestFileStart(test) {
    // jest hands the worker the project's config once this returns.
    // strobe's setup files: one says which process runs the file
    // (worker.cjs); the other narrows a selection by name, and keeps the
    // snapshots of the tests a selection leaves out (select.cjs).
    const setup = process.env.STROBE_JEST_SETUP || __dirname;
    if (this.only || this.selected) withSetupFile(test.context.config, path.join(setup, 'select.cjs'));
    withSetupFile(test.context.config, path.join(setup, 'worker.cjs'));
    if (this.projects) {
      const running = this.running.get(test.path) || [];
      this.running.set(test.path, running.concat(projectOf(test)));
    }
    this.emit({ev: 'file', file: test.path});
    if (this.update) {
      const bad = unreadableSnapshots(test.path);
      if (bad) this.emit({ev: 'badsnap', file: test.path, ...bad});
    }
  }

  onTestCaseStart(test, info) {
    // Under several projects, test.context is the first project's
    // whichever ran the test (see onTestCaseResult): the project is the
    // one running the file, and unknown while two run it at once.
    let project = '';
    if (this.projects) {
      const running = this.running.get(test.path) || [];
      if (running.length !== 1) return;
      project = running[0];
    }
    if (!this.takes(info, project)) return;
    const name = nameOf(info);
    const got = numbered(this.starts, keyOf(test.path, project), name);
    if (!this.takesNumbered(got, project)) return;
    const ev = {ev: 'start', file: test.path, name: tagged(got, project)};
    if (project) ev.project = project;
    if (ev.name !== name) ev.title = name; // for the rerun of a test that ends jest (process.exit)
    this.emit(ev);
  }

  onTestCaseResult(test, result) {
    // Under several projects, jest gives a test's own events the context
    // of the first project of its runner, whichever project ran it; the
    // file's result has the right one. Its tests end there, named with
    // their project for the rerun (--selectProjects).
    if (this.projects) return;
    this.end(test.path, result);
  }

  end(file, result, project) {
    if (!this.takes(result, project)) return;
    const name = nameOf(result);
    const got = numbered(this.ends, keyOf(file, project), name);
    let seen = this.ended.get(file);
    if (!seen) this.ended.set(file, (seen = new Map()));
    let ends = seen.get(name);
    if (!ends) seen.set(name, (ends = []));
    if (!this.takesNumbered(got, project)) {
      ends.push({left: true}); // in the file's result, in its place
      return;
    }
    const ev = {ev: 'end', file, name: tagged(got, project), status: statusOf(result.status), ms: result.duration || 0};
    if (project) ev.project = project;
    ends.push(ev);
    this.emitEnd(ev, name, file, result);
  }

  // takes tells whether the run selected a test (jest's test case info or
  // result, and the project that ran it): -t let it through, and it is the
  // test named or in the block named, when a name was; in that project,
  // when the name ends with one's tag.
  takes(r, project) {
    if (this.selected && r.status === 'pending' && !this.selected.test(idOf(r))) return false;
    if (!this.only) return true;
    const only = this.onlyIn(project);
    const name = nameOf(r);
    // "NAME #2" is the second test jest names NAME in its file: jest
    // cannot select it alone, so -t lets every test of that name through
    // (select.cjs skips the others; takesNumbered leaves them out).
    return [only, only.replace(/ #([2-9]|[1-9][0-9]+)$/, '')].some((o) => name === o || name.startsWith(o + SEP));
  }

  // onlyIn is the name selected, without the tag of the project that ran
  // the test.
  onlyIn(project) {
    const tag = project ? tagged('', project) : '';
    return tag && this.only.endsWith(tag) ? this.only.slice(0, -tag.length) : this.only;
  }

  // takesNumbered tells, once a test that takes let through is numbered
  // (got, "NAME #2"), whether it is the one a numbered name selects: the
  // others of its name ran beside it, and are not answered.
  takesNumbered(got, project) {
    if (!this.only) return true;
    const only = this.onlyIn(project);
    return !/ #([2-9]|[1-9][0-9]+)$/.test(only) || got === only || got.startsWith(only + SEP);
  }

  emitEnd(ev, name, file, result) {
    if (ev.name !== name) ev.title = name; // for the rerun: jest knows the test by it
    if (result.status === 'failed') {
      const text = (result.failureMessages || []).join('\n\n');
      ev.msg = messageOf(text) + innerErrors(result.failureDetails);
      ev.at = locate(text, file) || declared(result, file);
      const thrown = ev.at && ev.at.file === file && thrownAt(text, file, this.rootDir);
      if (thrown) ev.msg = `${ev.msg}\n(thrown at ${thrown})`.slice(0, MAX_MESSAGE);
      const own = ev.at && ev.at.file === file && ownFrame(text, file, result.title, ev.at.line);
      if (own) {
        ev.msg = `${ev.msg}\n(through ${path.relative(this.rootDir, file)}:${ev.at.line}, a function the test calls)`.slice(0, MAX_MESSAGE);
        ev.at = own;
      }
      // An error a test left behind (a timer that throws, a promise
      // rejected late) fails the test running when it comes: its frame
      // then lies in another test's function.
      const late = ev.at && ev.at.file === file && lateOrigin(file, result.title, ev.at.line);
      if (late) ev.late = late;
      // jest reads a snapshot file that does not parse as empty, without
      // a word: its every snapshot is then new.
      if (ev.msg.includes('New snapshot was not written')) {
        const bad = unreadableSnapshots(file);
        if (bad) Object.assign(ev, bad);
      }
    }
    this.emit(ev);
  }

  onTestFileResult(test, result) {
    const file = test.path;
    const project = this.projects ? projectOf(test) : '';
    // Under several projects no test of the file ended before its result.
    const seen = (!this.projects && this.ended.get(file)) || new Map();
    for (const r of result.testResults || []) {
      const name = nameOf(r);
      const ends = seen.get(name);
      const sent = ends && ends.shift();
      if (!sent) {
        this.end(file, r, project);
        continue;
      }
      if (sent.left) continue; // another test of a numbered name's
      // jest 30 fails a test for a promise it rejected and nobody
      // handled once the file ends, after the test's own result said it
      // passed: the file's result is the last word.
      if (r.status === 'failed' && sent.status !== 'failed') {
        this.emitEnd({ev: 'end', file, name: sent.name, status: 'failed', ms: sent.ms}, name, file, r);
      }
    }
    // A project without a displayName has no tag: the names of a file
    // that two such projects run go on counting, the second run's tests
    // are "NAME #2", as tests that share a name in a file.
    if (!this.projects) {
      this.ended.delete(file);
      this.starts.delete(file);
      this.ends.delete(file);
    } else {
      const running = this.running.get(file) || [];
      const i = running.indexOf(projectOf(test));
      if (i >= 0) running.splice(i, 1);
    }
    this.emit({ev: 'fileDone', file});
    const err = result.testExecError;
    if (err) {
      const text = String(err.stack || err.message || err);
      const msg = stripAnsi(String(err.message || text)).slice(0, MAX_MESSAGE);
      const ran = (result.testResults || []).filter((r) => r.status === 'passed' || r.status === 'failed').length;
      const ev = {ev: 'suite', file, msg: msg.trim(), at: syntaxAt(msg, file) || locate(text, file), ran};
      if (project) ev.project = project;
      this.emit(ev);
    }
  }

  onRunComplete(contexts, r) {
    const ev = {
      ev: 'done',
      passed: r.numPassedTests,
      failed: r.numFailedTests,
      skipped: r.numPendingTests,
      todo: r.numTodoTests || 0,
      suitesFailed: r.numRuntimeErrorTestSuites || 0,
      interrupted: !!r.wasInterrupted,
    };
    if (this.bail > 0 && r.numFailedTests >= this.bail) ev.bail = this.bail;
    // jest fails a run that leaves obsolete snapshots (unless it updates
    // them); its console reporter, which strobe's replaces, listed them.
    const s = r.snapshot || {};
    // What the run wrote: jest --ci writes nothing unless the command
    // asks (-u), and its console reporter said what it wrote.
    const removed = s.didUpdate ? (s.unchecked || 0) + (s.filesRemoved || 0) : 0;
    if (s.added || s.updated || removed) ev.written = {added: s.added || 0, updated: s.updated || 0, removed};
    if (!s.didUpdate && (s.unchecked || s.filesRemoved)) {
      ev.obsolete = [];
      for (const u of s.uncheckedKeysByFile || []) {
        for (const key of u.keys || []) ev.obsolete.push({file: u.filePath, key});
      }
      ev.obsoleteFiles = s.filesRemovedList || [];
    }
    this.emit(ev);
    if (this.fd !== null) {
      fs.closeSync(this.fd);
      this.fd = null;
    }
  }

  getLastError() {
    return undefined;
  }
}

// numbered is the name of the next test of that name in file: the name
// itself the first time, then "NAME #2", "NAME #3", past any name the file
// already gave (a test titled "NAME #2" of its own), so that no two tests
// share one.
function numbered(counts, file, name) {
  let seen = counts.get(file);
  if (!seen) counts.set(file, (seen = {counts: new Map(), used: new Set()}));
  let n = (seen.counts.get(name) || 0) + 1;
  let got = n === 1 ? name : `${name} #${n}`;
  while (seen.used.has(got)) got = `${name} #${++n}`;
  seen.counts.set(name, n);
  seen.used.add(got);
  return got;
}

// wellFormed is a name as it is read once written: each lone surrogate
// becomes U+FFFD (JSON then Go make it so). Two titles that differ only
// in one ("<!--\ud800-->", "<!--\udfff-->", xmldom's) are then one name
// (nameOf), and are numbered as such; unnumbered, the second test's
// result went over the first's.
function wellFormed(name) {
  return typeof name.toWellFormed === 'function'
    ? name.toWellFormed()
    : name.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

// withSetupFile adds a setup file to a project's config, once. jest
// freezes the config object, not the list.
function withSetupFile(config, file) {
  const files = config.setupFilesAfterEnv;
  if (Array.isArray(files) && !Object.isFrozen(files) && !files.includes(file)) files.push(file);
}

// keyOf is what counts a file's names: the file, and the project that
// runs it when the names are tagged.
function keyOf(file, project) {
  return project ? file + '\n' + project : file;
}

// tagged is a test's name under several projects: its project's added.
function tagged(name, project) {
  return project ? `${name} [${project}]` : name;
}

// projectOf is the name of the project (its displayName) a test file ran
// in, which --selectProjects takes; '' for a project without one.
function projectOf(test) {
  const d = test && test.context && test.context.config && test.context.config.displayName;
  if (!d) return '';
  return typeof d === 'string' ? d : d.name || '';
}

function idOf(r) {
  return (r.ancestorTitles || []).concat(r.title).join(' ');
}

function nameOf(r) {
  return wellFormed((r.ancestorTitles || []).concat(r.title).join(SEP));
}

function statusOf(s) {
  switch (s) {
    case 'passed':
    case 'failed':
    case 'todo':
      return s;
    case 'pending':
    case 'skipped':
    case 'disabled':
      return 'skipped';
  }
  return 'failed';
}

function stripAnsi(s) {
  return s.replace(ANSI, '');
}

// messageOf keeps a failure's text up to its stack: the matcher's message
// and its expected/received lines.
function messageOf(text) {
  const lines = stripAnsi(text).split('\n');
  const out = [];
  for (const l of lines) {
    if (ANY_FRAME.test(l)) {
      if (out.length && out[out.length - 1].trim() !== '') out.push('');
      continue;
    }
    out.push(l);
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trim().slice(0, MAX_MESSAGE);
}

function inProject(f) {
  return !f.startsWith('node:') && !f.includes('/node_modules/') && !f.startsWith('internal/') && f.startsWith('/');
}

// locate is the first frame in the test file, else the first frame in the
// project; null when the text has none.
function locate(text, file) {
  let first = null;
  for (const l of stripAnsi(text).split('\n')) {
    const m = FRAME.exec(l);
    if (!m) continue;
    const f = m[1].replace(/^file:\/\//, '');
    const at = {file: f, line: +m[2], col: +m[3]};
    if (f === file) return at;
    if (!first && inProject(f)) first = at;
  }
  return first;
}

// thrownAt is where in the project's own code an error was thrown when
// that is not the test file (a function of the library under test), as
// FILE:LINE from the root, else '': the failure is placed at the test's
// line, which called it, and the message says where it was thrown, as
// mocha's, node:test's and vitest's do. An assertion's first frame in
// the project is the test's own (expect throws from node_modules).
function thrownAt(text, file, root) {
  for (const l of stripAnsi(text).split('\n')) {
    const m = FRAME.exec(l);
    if (!m) continue;
    const f = m[1].replace(/^file:\/\//, '');
    if (!inProject(f) || f.startsWith(__dirname + path.sep)) continue;
    if (f === file) return '';
    const rel = path.relative(root, f);
    return rel.startsWith('..') ? '' : `${rel}:${m[2]}`;
  }
  return '';
}

// declared is where the test was written, for a failure with no stack in
// the test file (a timeout): jest's own location when it has one (a user's
// --testLocationInResults), else the first line of the file that holds the
// test's title as a string. strobe does not ask jest for locations: that
// costs jest half again its CPU time on a large suite, for every test, to
// serve the rare failure without a stack.
const sources = new Map();
function declared(r, file) {
  if (r.location) return {file, line: r.location.line, col: r.location.column + 1};
  if (!r.title) return null;
  let lines = sources.get(file);
  if (lines === undefined) {
    try {
      lines = fs.readFileSync(file, 'utf8').split('\n');
    } catch {
      lines = null;
    }
    sources.set(file, lines);
  }
  if (!lines) return null;
  for (const q of ["'", '"', '`']) {
    const needle = q + r.title + q;
    const i = lines.findIndex((l) => l.includes(needle));
    if (i >= 0) return {file, line: i + 1, col: lines[i].search(/\S/) + 1};
  }
  return null;
}

// calls finds the calls of describe, test and it with a string title in a
// file's text, and the lines each spans: [{kind, title, first, last}]. It
// reads brackets past strings and comments; a call whose end it cannot
// find (a regular expression holding a bracket) is left out.
const CALL = /\b(describe|test|it)(?:\.(?:only|skip|concurrent|failing))*\s*\(\s*(['"`])((?:\\.|(?!\2)[^\\\n])*)\2/g;
const callsOf = new Map();
function calls(file) {
  if (callsOf.has(file)) return callsOf.get(file);
  let text = null;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    // gone: no calls
  }
  const out = [];
  if (text !== null && text.length < 4 << 20) {
    // The line of an offset: a search of the newlines' offsets, found
    // once (a file of many tests would otherwise be split per call).
    const newlines = [];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) newlines.push(i);
    const lineAt = (i) => {
      let lo = 0;
      let hi = newlines.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (newlines[mid] < i) lo = mid + 1;
        else hi = mid;
      }
      return lo + 1;
    };
    for (const m of text.matchAll(CALL)) {
      const open = text.indexOf('(', m.index);
      const end = callEnd(text, open);
      if (end > 0) out.push({kind: m[1] === 'describe' ? 'describe' : 'test', title: m[3], first: lineAt(m.index), last: lineAt(end), start: m.index, end});
    }
  }
  callsOf.set(file, out);
  return out;
}

function callEnd(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === '`') {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      i = text.indexOf('\n', i);
      if (i < 0) return -1;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2);
      if (i < 0) return -1;
      i++;
      continue;
    }
    if (c === '(' || c === '{' || c === '[') depth++;
    else if (c === ')' || c === '}' || c === ']') {
      depth--;
      if (depth === 0) return c === ')' ? i : -1;
    }
  }
  return -1;
}

// ownFrame is where the failing test's own code called what failed, when
// the failure's first frame in the test file lies outside the test (line):
// a helper written beside the tests, which many tests call, is not where
// this one failed (luxon's diff tests, through two helpers at the top of
// the file, were all at the helpers' line). The frame in a test of that
// title, as strobe finds the tests in the file, else null: a frame in no
// test of that title is left where it is (a late error's, see lateOrigin).
function ownFrame(text, file, title, line) {
  const spans = calls(file).filter((c) => c.kind === 'test' && c.title === title);
  const inTest = (n) => spans.some((c) => c.first <= n && n <= c.last);
  if (spans.length === 0 || inTest(line)) return null;
  for (const l of stripAnsi(text).split('\n')) {
    const m = FRAME.exec(l);
    if (!m) continue;
    const f = m[1].replace(/^file:\/\//, '');
    if (f === file && inTest(+m[2])) return {file: f, line: +m[2], col: +m[3]};
  }
  return null;
}

// lateOrigin is the test whose function holds line, when the failure of
// the test titled title lies there: {origin: its name (describe blocks
// and title, " › "), line: where it is declared}. null when line lies in
// a test of that title (its own doing), or in no test strobe finds, or
// the file holds no test of that title as a string (no telling).
function lateOrigin(file, title, line) {
  const cs = calls(file);
  const tests = cs.filter((c) => c.kind === 'test' && c.first <= line && line <= c.last);
  if (!cs.some((c) => c.kind === 'test' && c.title === title)) return null;
  if (tests.length === 0 || tests.some((c) => c.title === title)) return null;
  const t = tests.reduce((a, b) => (b.last - b.first < a.last - a.first ? b : a));
  const blocks = cs.filter((c) => c.kind === 'describe' && c.start < t.start && t.end < c.end);
  return {origin: blocks.map((b) => b.title).concat(t.title).join(SEP), line: t.first};
}

// unreadableSnapshots tells, for a test file, whether its snapshot file
// (jest's default place, __snapshots__/FILE.snap) is there but does not
// parse, as jest evaluates it: {snapFile, snapError}, else null.
const snapshotFiles = new Map();
function unreadableSnapshots(file) {
  if (snapshotFiles.has(file)) return snapshotFiles.get(file);
  const snap = path.join(path.dirname(file), '__snapshots__', path.basename(file) + '.snap');
  let bad = null;
  try {
    const text = fs.readFileSync(snap, 'utf8');
    try {
      // eslint-disable-next-line no-new-func
      new Function('exports', text)(Object.create(null));
    } catch (e) {
      bad = {snapFile: snap, snapError: String((e && e.name ? e.name + ': ' : '') + (e && e.message)).slice(0, 300)};
    }
  } catch {
    // no snapshot file: the snapshot is new indeed
  }
  snapshotFiles.set(file, bad);
  return bad;
}

// syntaxAt reads a compile error's location: babel's "FILE: message
// (L:C)" and the code frame's "> L |" line.
function syntaxAt(msg, file) {
  let m = /^(?:SyntaxError: )?(\/[^:\n]+): [^\n]*\((\d+):(\d+)\)/m.exec(msg);
  if (m) return {file: m[1], line: +m[2], col: +m[3] + 1};
  // ts-jest's TypeScript diagnostic: "FILE:LINE:COL - error TS1109: …",
  // FILE relative to the working directory.
  m = /^(\S+?):(\d+):(\d+) - error TS\d+:/m.exec(msg);
  if (m) return {file: file.endsWith('/' + m[1]) ? file : path.resolve(m[1]), line: +m[2], col: +m[3]};
  m = /^\s*> (\d+) \|/m.exec(msg);
  if (m && /SyntaxError/.test(msg)) return {file, line: +m[1], col: 0};
  return null;
}

// innerErrors says the errors an AggregateError holds (Promise.any), which
// jest's message leaves out: it shows the outer one's message only. At
// most 5, the rest counted. worker.cjs writes them down in the test's
// realm (strobeHeld), as neither a worker's results nor, on node 22, a
// copy of its stacks keeps them; without it, what the copy kept: an
// error's name is its stack's first line's ("TypeError: …"), and one
// whose stack did not come is shown by its message, its name not made
// up. (vitest's, mocha's and node:test's reporters have their own
// heldErrors: each reporter is one file, loaded alone.)
function innerErrors(details) {
  const lines = [];
  let more = 0;
  for (const d of details || []) {
    if (!d) continue;
    const held = d.strobeHeld;
    if (held && Array.isArray(held.heads)) {
      for (const head of held.heads) {
        if (lines.length === 5) { more++; continue; }
        lines.push('  ' + String(head));
      }
      more += Math.max(0, (+held.total || 0) - held.heads.length);
      continue;
    }
    if (!Array.isArray(d.errors)) continue;
    for (const e of d.errors) {
      if (lines.length === 5) { more++; continue; }
      const msg = (e && e.message !== undefined ? String(e.message) : String(e)).split('\n')[0];
      const head = e && typeof e.stack === 'string' ? e.stack.split('\n')[0] : '';
      const name = e && typeof e.name === 'string' ? e.name : '';
      lines.push('  ' + (head.endsWith(': ' + msg) ? head : name ? `${name}: ${msg}` : msg));
    }
  }
  if (!lines.length) return '';
  if (more) lines.push(`  and ${more} more`);
  return `\n\nits errors:\n${lines.join('\n')}`;
}

module.exports = StrobeReporter;
