// strobe's reporter for mocha, loaded by path with --reporter. It writes one
// JSON line per event to the file given as --reporter-option out=FILE,
// which strobe tails while the tests run; the lines are those of strobe's
// node:test reporter (see adapters/kit/node/events.go). Written
// synchronously: a test's start is in the file before its body runs, so a
// test that never returns (a busy loop) is still named. Written for strobe;
// no dependencies.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const SEP = ' \u203a ';
const ANSI = /\u001b\[[0-9;?]*[ -\/]*[@-~]/g;
const OUT_BUDGET = 64 << 10;
const FRAME = /^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?\s*$/;

function clip(s, n) {
  return typeof s === 'string' && s.length > n ? s.slice(0, n) + '…' : s;
}

function pathOf(f) {
  if (typeof f === 'string' && f.startsWith('file://')) {
    try { return decodeURIComponent(new URL(f).pathname); } catch { return f; }
  }
  return f;
}

function inspect(v) {
  try {
    return clip(typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v, null, 2) ?? String(v), 2048);
  } catch {
    return clip(String(v), 2048);
  }
}

// where finds the frame of err's stack in the test file, else the first in
// the project (not node_modules, not node's own).
function projectFrames(stack) {
  const frames = [];
  for (const l of String(stack || '').split('\n')) {
    const m = FRAME.exec(l);
    // mocha trims its stacks and names files relative to the working directory.
    if (m && !m[1].startsWith('node:') && !m[1].startsWith('<')) frames.push({ file: path.resolve(pathOf(m[1])), line: +m[2] });
  }
  return frames;
}

function where(stack, file) {
  const frames = projectFrames(stack);
  return frames.find((f) => f.file === file) || frames.find((f) => !f.file.includes('/node_modules/'));
}

// thrownAt is where an error was thrown, when that is the project's code
// outside the test's own file (a library function, a helper module): the
// failure is placed at the test's line, which alone would not say it.
function thrownAt(stack, at) {
  const first = projectFrames(stack).find((f) => !f.file.includes('/node_modules/'));
  if (!first || !at || first.file === at.file) return '';
  const rel = path.relative(process.cwd(), first.file);
  return rel.startsWith('..') ? '' : `${rel}:${first.line}`;
}

function sameType(a, b) {
  return Object.prototype.toString.call(a) === Object.prototype.toString.call(b);
}

function titleOf(runnable) {
  return runnable.titlePath().filter((t) => t !== '').join(SEP);
}

// Names gives each test a name of its own in its file: tests may share a
// full title (a title repeated, titles made in a loop), which strobe would
// count as one; the second is "TITLE #2", the third "TITLE #3", in the
// order they run. A retried test keeps its first try's name.
class Names {
  constructor() {
    this.byTest = new Map(); // test's id (or the test) → its name
    this.counts = new Map(); // file → (title → how many)
  }

  of(test) {
    const first = (typeof test.retriedTest === 'function' && test.retriedTest()) || test;
    const key = first.id || first.__mocha_id__ || first;
    let name = this.byTest.get(key);
    if (name === undefined) {
      const title = titleOf(first);
      let seen = this.counts.get(first.file);
      if (!seen) this.counts.set(first.file, (seen = {counts: new Map(), used: new Set()}));
      // Past any name the file already gave (a test titled "NAME #2" of
      // its own): no two tests share one.
      let n = (seen.counts.get(title) || 0) + 1;
      name = n === 1 ? title : `${title} #${n}`;
      while (seen.used.has(name)) name = `${title} #${++n}`;
      seen.counts.set(title, n);
      seen.used.add(name);
      this.byTest.set(key, name);
    }
    return name;
  }

  // known is the name a test was given, if it ran: undefined for one not
  // yet named (naming it now would number it out of its turn).
  known(test) {
    const first = (typeof test.retriedTest === 'function' && test.retriedTest()) || test;
    return this.byTest.get(first.id || first.__mocha_id__ || first);
  }
}

// fnText keeps a test's function text once its block ends: mocha then
// drops the function (cleanReferencesAfterRun), and a late error may yet
// come from it.
const fnText = new WeakMap();
function textOf(test) {
  return typeof test.fn === 'function' ? Function.prototype.toString.call(test.fn) : '';
}

// A test file's text, read once, for testAt.
const sources = new Map();
function sourceOf(file) {
  if (!sources.has(file)) {
    let text = null;
    try { text = fs.readFileSync(file, 'utf8'); } catch {}
    sources.set(file, text);
  }
  return sources.get(file);
}

// lineOf is the line of an offset in a file's text: a search of its
// newlines' offsets, found once a text (a file of many tests would
// otherwise be split for each of them).
const newlinesOf = new Map();
function lineOf(text, offset) {
  let nl = newlinesOf.get(text);
  if (!nl) {
    nl = [];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) nl.push(i);
    newlinesOf.set(text, nl);
  }
  let lo = 0;
  let hi = nl.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (nl[mid] < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo + 1;
}

function testsOf(suite, out = []) {
  for (const t of suite.tests) out.push(t);
  for (const s of suite.suites) testsOf(s, out);
  return out;
}

// spans are the lines a test's function covers in its file: where the
// file holds its source text (Function.prototype.toString gives a
// function's own text; a transpiled file does not hold it, and gives
// none).
function spans(test, text) {
  const src = fnText.get(test) ?? textOf(test);
  const out = [];
  if (!src || src.length < 8 || !text) return out;
  for (let i = text.indexOf(src); i >= 0; i = text.indexOf(src, i + 1)) {
    const first = lineOf(text, i);
    out.push([first, first + src.split('\n').length - 1]);
  }
  return out;
}

// testAt is the test of root's tree whose function holds file:line, the
// innermost when several do; null when none does or several are alike
// (the same function text declared in a loop: no telling which).
function testAt(root, file, line) {
  const text = sourceOf(file);
  if (!root || !text) return null;
  let best = null;
  let size = Infinity;
  let tie = false;
  for (const t of testsOf(root)) {
    if (t.file !== file) continue;
    for (const [a, b] of spans(t, text)) {
      if (line < a || line > b) continue;
      if (b - a < size) [best, size, tie] = [t, b - a, false];
      else if (b - a === size && t !== best) tie = true;
    }
  }
  return tie ? null : best;
}

// declaredAt is the first line of a test's function in its file, 0 when
// the file does not hold its text.
function declaredAt(test) {
  const s = spans(test, sourceOf(test.file));
  return s.length === 1 ? s[0][0] : 0;
}

// named adds a test's mocha title to an event whose name differs from it:
// the rerun greps for that title.
function named(ev, test) {
  const title = titleOf(test);
  if (ev.name !== title) ev.title = title;
  return ev;
}

// narrow keeps, under suite (whose titles are path), only the tests a
// failed hook's name selects (STROBE_MOCHA_SELECT: {block, test}): those
// of the block, at any depth, titled test when one is named. mocha's
// --grep, a regexp over the titles joined by spaces, also takes a sibling
// block whose name begins with the block's and a space. The others, and
// the blocks left with no test (their hooks with them), leave the run
// before it begins. It tells whether suite kept a test.
function narrow(suite, path, sel) {
  const inBlock = path.length >= sel.block.length && sel.block.every((t, i) => path[i] === t);
  suite.tests = suite.tests.filter((t) => inBlock && (!sel.test || t.title === sel.test));
  suite.suites = suite.suites.filter((s) => narrow(s, path.concat(s.title), sel));
  return suite.tests.length > 0 || suite.suites.length > 0;
}

function selection() {
  try {
    const sel = JSON.parse(process.env.STROBE_MOCHA_SELECT || 'null');
    return sel && Array.isArray(sel.block) ? sel : null;
  } catch {
    return null;
  }
}

class StrobeReporter {
  constructor(runner, options) {
    // Serial mocha has loaded the files, and not yet applied --grep;
    // --parallel's workers load them, and run what --grep takes.
    this.runner = runner;
    const sel = selection();
    if (sel && runner.suite) narrow(runner.suite, [], sel);
    const opts = (options && options.reporterOption) || (options && options.reporterOptions) || {};
    const out = opts.out || process.env.STROBE_MOCHA_EVENTS;
    this.out = out;
    this.fd = out ? fs.openSync(out, 'a') : 1;
    const { constants } = runner.constructor;
    const emit = (o) => {
      try {
        fs.writeSync(this.fd, JSON.stringify(o) + '\n');
      } catch {
        // the file went away (strobe stopped the run): nothing to report to
      }
    };
    // What a test writes to stdout and stderr is sent with its name, as the
    // pipes cannot say whose it is: the first OUT_BUDGET bytes as they come,
    // then the newest OUT_BUDGET bytes when the test ends.
    let cur = null;
    const flush = () => {
      if (!cur) return;
      if (cur.ring.length) {
        let text = cur.ring.join('');
        if (text.length > OUT_BUDGET) {
          cur.dropped += text.length - OUT_BUDGET;
          text = text.slice(-OUT_BUDGET);
        }
        if (cur.dropped) text = `\n[strobe: ${cur.dropped} characters of output left out]\n` + text;
        emit({ e: 'out', file: cur.file, name: cur.name, stream: 'stdout', text });
      }
      cur = null;
    };
    const record = (stream, chunk, encoding) => {
      let text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8');
      if (cur.live < OUT_BUDGET) {
        const now = text.slice(0, OUT_BUDGET - cur.live);
        cur.live += now.length;
        emit({ e: 'out', file: cur.file, name: cur.name, stream, text: now });
        text = text.slice(now.length);
      }
      if (!text) return;
      cur.ring.push(text);
      cur.ringLen += text.length;
      while (cur.ring.length > 1 && cur.ringLen - cur.ring[0].length >= OUT_BUDGET) {
        const old = cur.ring.shift();
        cur.ringLen -= old.length;
        cur.dropped += old.length;
      }
    };
    for (const name of ['stdout', 'stderr']) {
      const stream = process[name];
      const write = stream.write;
      stream.write = function (chunk, encoding, cb) {
        if (cur) {
          try { record(name, chunk, encoding); } catch {}
        }
        return write.call(this, chunk, encoding, cb);
      };
    }
    const begin = (test) => {
      flush();
      cur = { file: test.file, name: names.of(test), live: 0, ring: [], ringLen: 0, dropped: 0 };
    };

    const names = new Names();
    // runner.total is the tests the run is to run, counted after --grep:
    // a run cut short (process.exit in a test, a signal, strobe's stop)
    // says how many never ran.
    runner.on(constants.EVENT_RUN_BEGIN, () => emit({ e: 'begin', node: process.version, tests: runner.total || 0 }));
    runner.on(constants.EVENT_TEST_BEGIN, (test) => {
      emit(named({ e: 'start', file: test.file, name: names.of(test) }, test));
      begin(test);
    });
    // A "before all" or "after all" hook runs outside any test: while it
    // runs, it is the one named running (a hook awaiting a promise that
    // never settles hangs the run with no test started). Its name is the
    // one its failure would have; a hook that passes is forgotten. An
    // "each" hook runs inside its test's start and end.
    const allHook = (hook) => hook.type === 'hook' && !/each/.test(hook.originalTitle || hook.title);
    runner.on(constants.EVENT_HOOK_BEGIN, (hook) => {
      if (allHook(hook)) emit({ e: 'hook', file: hook.file || (hook.parent && hook.parent.file), name: titleOf(hook) });
    });
    runner.on(constants.EVENT_HOOK_END, (hook) => {
      if (allHook(hook)) emit({ e: 'hookEnd', file: hook.file || (hook.parent && hook.parent.file), name: titleOf(hook) });
    });
    // Before mocha's own listener, which drops the tests' functions.
    runner.on(constants.EVENT_SUITE_END, (suite) => {
      for (const t of suite.tests || []) if (!fnText.has(t)) fnText.set(t, textOf(t));
    });
    runner.on(constants.EVENT_TEST_PASS, (test) => {
      flush();
      emit({ e: 'end', file: test.file, name: names.of(test), status: 'passed', ms: test.duration || 0 });
    });
    runner.on(constants.EVENT_TEST_PENDING, (test) => {
      emit({ e: 'end', file: test.file, name: names.of(test), status: 'skipped', ms: 0 });
    });
    // uncaught holds the tests failed by an error mocha caught as
    // uncaught: mocha ends such a test at once, and its own done, called
    // later, adds "done() called multiple times", which is no news.
    const uncaught = new Set();
    runner.on(constants.EVENT_TEST_FAIL, (runnable, err) => {
      if (err && err.code === 'ERR_MOCHA_MULTIPLE_DONE' && uncaught.has(runnable)) return;
      if (err && err.uncaught) uncaught.add(runnable);
      // A "before each" or "after each" hook fails the test it ran for; a
      // "before all" or "after all" hook fails its block, named by the hook.
      let target = runnable;
      let name = runnable.type === 'hook' ? titleOf(runnable) : names.of(runnable);
      let suite = false;
      if (runnable.type === 'hook') {
        const current = runnable.ctx && runnable.ctx.currentTest;
        if (current && /each/.test(runnable.title)) {
          target = current;
          name = names.of(current);
        } else {
          suite = true;
        }
      }
      const file = target.file || (runnable.parent && runnable.parent.file);
      flush();
      const fail = this.failure(err, file, runnable);
      if (err && err.uncaught && !suite) this.late(fail, err, file, target, names);
      emit(named({ e: 'end', file, name, status: 'failed', ms: target.duration || 0, suite, started: suite, fail }, suite ? runnable : target));
    });
    // An error thrown once the run has ended (a timer a test left, a
    // done() called again): mocha throws it from its handler, node prints
    // it and exits 7, every test having passed. It comes before that
    // listener, and changes nothing but what strobe hears.
    let ended = false;
    process.prependListener('uncaughtException', (err) => {
      if (!ended) return;
      const fail = this.failure(err, '', { type: 'test' });
      let file = fail.file || '';
      let origin = file ? testAt(runner.suite, file, fail.line) : null;
      // mocha's "done() called multiple times in test <FULL TITLE> of
      // file FILE": no frame of the test's own.
      const m = /^done\(\) called multiple times in \w+ <(.*)>(?: \(of [^)]*\))?(?: of file (.+?))?(?:; in addition|$)/.exec(String(err && err.message));
      if (!origin && m) {
        origin = testsOf(runner.suite).find((t) => t.fullTitle() === m[1] && (!m[2] || t.file === m[2])) || null;
        if (origin) {
          file = origin.file;
          const at = declaredAt(origin);
          if (at && fail.file !== file) Object.assign(fail, { file, line: at });
        }
      }
      // The second done of a test mocha ended for an uncaught error is no
      // news: that failure is said.
      if (origin && m && uncaught.has(origin)) return;
      const ev = { e: 'late', file, fail };
      if (origin) ev.name = names.known(origin) || titleOf(origin);
      try {
        if (out) fs.appendFileSync(out, JSON.stringify(ev) + '\n');
      } catch {}
    });
    runner.once(constants.EVENT_RUN_END, () => {
      ended = true;
      flush();
      const s = runner.stats || {};
      const counts = { tests: s.tests, pass: s.passes, fail: s.failures, pending: s.pending, suites: s.suites, duration_ms: s.duration };
      // --bail stops the run at the first failure: runner.total counts
      // the tests the run was to run (its --grep's), stats.tests those
      // that ended, pending ones included.
      const bail = runner.suite && typeof runner.suite.bail === 'function' && runner.suite.bail();
      if (bail && s.failures > 0 && runner.total > s.tests) {
        counts.bail = 1;
        counts.total = runner.total;
        counts.notRun = runner.total - s.tests;
      }
      emit({ e: 'summary', counts });
      emit({ e: 'done' });
    });
  }

  failure(err, file, runnable) {
    err = err || {};
    const name = err.name || 'Error';
    let message = String(err.message ?? err).replace(ANSI, '');
    if (name !== 'AssertionError') message = `${name}: ${message}`;
    message += heldErrors(err.errors);
    if (runnable.type === 'hook') message = `${runnable.title}: ${message}`;
    const f = { kind: runnable.type === 'hook' ? 'hook' : (err.code === 'ERR_MOCHA_TIMEOUT' ? 'timeout' : ''), message: clip(message, 8192) };
    // As mocha's own reporters: no diff of unlike values (supertest's
    // expected body is a string, its actual the parsed object).
    if ('expected' in err && 'actual' in err && err.showDiff !== false && err.expected !== undefined && sameType(err.expected, err.actual)) {
      f.expected = inspect(err.expected);
      f.actual = inspect(err.actual);
    }
    // An AggregateError made by Promise.any has no frame of its own: its
    // first held error's says where.
    const held = Array.isArray(err.errors) ? err.errors.find((e) => e && where(e.stack, file)) : undefined;
    const at = where(err.stack, file) || (held && where(held.stack, file));
    if (at) Object.assign(f, at);
    const thrown = thrownAt(err.stack, at);
    if (thrown) f.message = clip(`${f.message}\n(thrown at ${thrown})`, 8192);
    return f;
  }

  // late reads an error mocha caught as uncaught and pinned on the test
  // running when it came (fail.kind "uncaught"): the test whose function
  // holds the error's frame (fail.origin), when that is another test,
  // which had ended (a timer or callback it left behind). Its own frame,
  // the test's own doing: nothing to add.
  late(fail, err, file, target, names) {
    const origin = fail.file ? testAt(this.runner && this.runner.suite, fail.file, fail.line) : null;
    if (origin === target) return;
    fail.kind = 'uncaught';
    if (origin) fail.origin = names.known(origin) || titleOf(origin);
  }

  done(failures, fn) {
    if (this.fd !== 1) {
      try { fs.closeSync(this.fd); } catch {}
    }
    fn(failures);
  }
}

// heldErrors says the errors an AggregateError holds (Promise.any), which
// the framework's message leaves out: at most 5, the rest counted.
function heldErrors(errors) {
  if (!Array.isArray(errors) || !errors.length) return '';
  const lines = errors.slice(0, 5).map((e) => `  ${(e && e.name) || 'Error'}: ${String(e && e.message !== undefined ? e.message : e).split('\n')[0]}`);
  if (errors.length > 5) lines.push(`  and ${errors.length - 5} more`);
  return `\n\nits errors:\n${lines.join('\n')}`;
}

// workerHooks are root hooks for mocha --parallel's workers (the file is
// also given as --require): a worker sends a file's events to the reporter
// only when the file is done, so a test that hangs would never be named
// running. Each worker writes, beside the reporter, that a test runs
// ("running") and that it ran ("ran": its result comes with its file's);
// the names are the reporter's, numbered per file as it numbers them (a
// worker runs a file whole), and the worker's pid tells, when a worker
// ends, whose test went with it. Only in a worker: serial mocha's reporter
// names its tests itself.
function workerHooks() {
  const out = path.join(__dirname, 'events.jsonl');
  const names = new Names();
  let fd;
  const emit = (o) => {
    try {
      if (fd === undefined) fd = fs.openSync(out, 'a');
      fs.writeSync(fd, JSON.stringify(o) + '\n');
    } catch {
      // the file went away (strobe stopped the run): nothing to report to
    }
  };
  // A test that ends its worker (process.exit) takes its result with it,
  // and mocha says only, at the run's end, that a worker "terminated
  // unexpectedly": the worker says it first.
  process.on('exit', (code) => emit({ e: 'workerExit', pid: process.pid, code }));
  return {
    beforeEach() {
      const t = this.currentTest;
      if (t) emit(named({ e: 'running', file: t.file, name: names.of(t), pid: process.pid }, t));
    },
    afterEach() {
      const t = this.currentTest;
      if (t) emit({ e: 'ran', file: t.file, name: names.of(t) });
    },
  };
}

// A worker loads this file only as --require, and mocha takes root hooks
// from an object's mochaHooks; the main process loads it as the reporter.
const inWorker = /[\\/]mocha[\\/]lib[\\/]nodejs[\\/]worker\.js$/.test(process.argv[1] || '');
module.exports = inWorker ? { mochaHooks: workerHooks() } : StrobeReporter;
