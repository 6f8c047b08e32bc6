// strobe's reporter for node:test (node >= 18.15), loaded by path with
// --test-reporter. It turns the runner's events into one JSON line each, in
// the file given by --test-reporter-destination, which strobe tails while
// the tests run. Written for strobe; no dependencies.
//
// Lines ("e" is the kind):
//   {"e":"begin","node":"v20.20.2"}
//   {"e":"start","file","name","line"}             a test began (live progress, stuck naming)
//   {"e":"end","file","name","line","status","ms", "fail":{...}}  status: passed|failed|skipped|todo|cancelled
//       a describe block or parent test adds "suite", "started" and "block" (a describe block, not a test)
//       or "test" (a parent test: node >= 18.17 tells the two apart);
//       a cancelled one adds "parent", the full title of the block or test it was cancelled with
//       (one never run, fail.kind "unrun": the test before it, which never settled);
//       a test file that ran no test of its own and passed, "whole" (no name: the file is the test)
//   {"e":"out","file","name","stream","text"}      a test file's stdout/stderr
//   {"e":"file","file","ms","signal","code","tests","error":{...}}  a test file's process failed
//       "load": it did not load; "whole": it ran no test of its own, and a top-level assert failed
//   {"e":"summary","counts":{...}}                 node's totals (tests, pass, fail, ...)
//   {"e":"done"}
// name is the full title: describe blocks and parent tests joined by " › ".

import { statSync } from 'node:fs';
import { relative, resolve } from 'node:path';

const SEP = ' \u203a ';
// node marks a describe block's end with details.type 'suite' since 18.17
// (19.9, 20.0): a suite without it is then a parent test.
const TYPED = (() => {
  const [major, minor] = process.versions.node.split('.').map(Number);
  return major > 19 || (major === 19 && minor >= 9) || (major === 18 && minor >= 17);
})();
// A dequeued test whose children arrive within this long is a suite, not a
// test: node says which only when it ends, and a start line must come
// while a hung test still hangs. On a machine so loaded that a describe
// block's children come later, the block is started, and then recorded as
// a test of its own.
const SUITE_WAIT_MS = 150;
// Output kept per test file: what a test prints without end still reaches
// the run's raw output through the console reporter.
const OUT_BUDGET = 4 << 20;
// node's lines about its inspector, as a test file's stderr.
const INSPECTOR = /^(?:Debugger listening on ws:\/\/|Debugger attached\.\s*$|Debugger ending on ws:\/\/|Waiting for the debugger to disconnect\.\.\.\s*$|For help, see: https:\/\/nodejs\.org\/(?:en\/docs\/inspector|learn\/getting-started\/debugging))/;
const ANSI = /\u001b\[[0-9;?]*[ -\/]*[@-~]/g;

function isDir(f) {
  try { return statSync(f).isDirectory(); } catch { return false; }
}

function clean(s) {
  return typeof s === 'string' ? s.replace(ANSI, '') : s;
}

function clip(s, n) {
  if (typeof s !== 'string' || s.length <= n) return s;
  return s.slice(0, n) + '…';
}

function pathOf(f) {
  if (typeof f === 'string' && f.startsWith('file://')) {
    try { return decodeURIComponent(new URL(f).pathname); } catch { return f; }
  }
  return f;
}

// frames reads V8 stack text: "    at fn (file:line:col)" or "    at file:line:col".
const FRAME = /^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?\s*$/;
function frames(stack) {
  const out = [];
  if (typeof stack !== 'string') return out;
  for (const l of stack.split('\n')) {
    const m = FRAME.exec(l);
    if (m) out.push({ file: pathOf(m[1]), line: +m[2], col: +m[3] });
  }
  return out;
}

function projectFrame(fs, testFile) {
  const own = fs.find((f) => f.file === testFile);
  if (own) return own;
  return fs.find((f) => f.file.startsWith('/') && !f.file.includes('/node_modules/'));
}

// thrownAt is where an error was thrown, when that is the project's code
// outside the frame the failure is placed at (a library function, a
// helper module): the test's line alone would not say it.
function thrownAt(fs, at) {
  const first = fs.find((f) => f.file.startsWith('/') && !f.file.includes('/node_modules/'));
  if (!first || !at || first.file === at.file) return '';
  const rel = relative(process.cwd(), first.file);
  return rel.startsWith('..') ? '' : `${rel}:${first.line}`;
}

function inspect(v) {
  try {
    return clip(typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v, null, 2) ?? String(v), 2048);
  } catch {
    return clip(String(v), 2048);
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

// failure describes why a test failed: the assertion's own error (cause),
// its message without colour, the frame in the test file.
function failure(data) {
  const err = data.details && data.details.error;
  const own = { file: pathOf(data.file), line: data.line };
  if (!err) return { message: 'failed', ...own };
  // node wraps what the test threw in ERR_TEST_FAILURE, with it as cause;
  // an empty cause ({}) is node's own failure (a timeout, failed subtests).
  const c = err.cause;
  const thrown = c !== undefined && c !== null && !(typeof c === 'object' && !(c instanceof Error) && Object.keys(c).length === 0);
  let message;
  let stack = '';
  if (!thrown) {
    message = err.message;
  } else if (c instanceof Error || (typeof c === 'object' && 'message' in c)) {
    const name = c.name || 'Error';
    message = (name === 'AssertionError' ? c.message : `${name}: ${c.message}`) + heldErrors(c.errors);
    stack = c.stack;
  } else {
    message = typeof c === 'string' ? c : `thrown: ${inspect(c)}`;
  }
  // A hook's failure says which hook ("failed running before hook"): the
  // block's own title would not.
  const hook = err.failureType === 'hookFailed' && /^failed running (\w+) hook$/.exec(err.message || '');
  if (hook) message = `${hook[1]} hook: ${message}`;
  // node cancels a test whose promise is still pending when its file has
  // nothing left to run: the test never settled.
  if (err.failureType === 'cancelledByParent' && PENDING.test(String(message))) {
    message = `the test never settled: node cancelled it with its promise still pending (${message})`;
  }
  const f = { kind: err.failureType || '', message: clip(clean(String(message)), 8192) };
  if (hook) f.hook = hook[1];
  if (thrown && typeof c === 'object' && 'expected' in c && 'actual' in c) {
    f.expected = clean(inspect(c.expected));
    f.actual = clean(inspect(c.actual));
  }
  const fs = frames(stack);
  const at = projectFrame(fs, own.file);
  Object.assign(f, at ? { file: at.file, line: at.line } : own);
  const where = thrownAt(fs, at);
  if (where) f.message = clip(`${f.message}\n(thrown at ${where})`, 8192);
  return f;
}

// PENDING is node's message for a test it cancelled with its promise still
// pending: the test's own failure (it awaits what never happens), which
// node counts cancelled. Any other cancelledByParent is a test cancelled
// with its parent: a describe block whose before hook failed, or a parent
// test that ended without awaiting it.
const PENDING = /^Promise resolution is still pending but the event loop has already resolved/;

// pending says whether node cancelled the test as its file's event loop
// emptied: a promise still pending, its own or, for a test never
// dequeued, that of the test before it.
function pending(d) {
  const err = d.details && d.details.error;
  if (!err || err.failureType !== 'cancelledByParent') return false;
  const c = err.cause;
  return PENDING.test(String(typeof c === 'string' ? c : err.message));
}

// cancelledWith says whether node cancelled the test with its parent (not
// a pending promise).
function cancelledWith(type, d) {
  const err = d.details && d.details.error;
  return type === 'test:fail' && !!err && err.failureType === 'cancelledByParent' && !pending(d);
}

// AFTER_END is node's diagnostic for an error a test caused once it had
// ended (a promise rejected later): the test passed, the file's process
// fails, and this line alone says why ("Error: Test "t" at test/x.js:5:1
// generated asynchronous activity after the test ended. …"). It names the
// file relative to node's directory, and comes before the file fails.
const AFTER_END = /^(?:[A-Za-z]*Error: )?(Test "[^]*" at (.+?):(\d+):\d+ generated asynchronous activity after the test ended\.[^]*)$/;

// loadError reads a test file's stderr for why it did not load: the
// SyntaxError's "file:line" header, or the first frame in a project file.
function loadError(file, stderr) {
  const lines = stderr.split('\n');
  const found = lines.find((l) => /^[A-Za-z]*Error\b|^Error \[/.test(l));
  const message = found || lines.find((l) => l.trim() !== '') || 'the test file failed before its tests reported';
  let at = null;
  const head = /^((?:file:\/\/)?\/.+?):(\d+)$/.exec(lines[0] || '');
  if (head) at = { file: pathOf(head[1]), line: +head[2] };
  if (!at) at = projectFrame(frames(stderr), file);
  const out = { message: clean(message), file: at ? at.file : file, line: at ? at.line : 0, found: !!found };
  if (found && /^AssertionError\b/.test(found)) {
    // An assertion that failed at the file's top level: the message is
    // the assertion's, its lines up to the stack ("false !== true").
    const rest = lines.slice(lines.indexOf(found) + 1);
    const end = rest.findIndex((l) => FRAME.test(l));
    const said = [found.replace(/^AssertionError(?: \[ERR_ASSERTION\])?: /, '')].concat(rest.slice(0, end < 0 ? rest.length : end));
    out.message = clean(said.join('\n').trim());
    out.assertion = true;
  }
  return out;
}

export default async function* strobeReporter(source) {
  yield JSON.stringify({ e: 'begin', node: process.version }) + '\n';
  const totals = {};
  const files = new Map(); // file -> state
  const state = (file) => {
    let s = files.get(file);
    if (!s) {
      s = { stack: [], titles: new Map(), counts: new Map(), used: new Set(), parents: new Set(), started: new Set(), pending: null, stderr: '', out: 0, tests: 0, current: '', orphans: [] };
      files.set(file, s);
    }
    return s;
  };
  // numbered is a test's name in strobe's answer: its title, made unique in
  // its file. Tests may share one (titles made in a loop, a title
  // repeated), which strobe would count as one; the second is "TITLE #2",
  // the third "TITLE #3", in the order node dequeues them, past any name
  // the file already gave (a test titled "TITLE #2" of its own).
  const numbered = (s, title) => {
    let n = (s.counts.get(title) || 0) + 1;
    let name = n === 1 ? title : `${title} #${n}`;
    while (s.used.has(name)) name = `${title} #${++n}`;
    s.counts.set(title, n);
    s.used.add(name);
    return name;
  };
  const keyOf = (d) => `${d.nesting}:${d.line}:${d.column}:${d.name}`;
  // A test file's own test: node 20 names it by the file's absolute path,
  // node 22 by its path relative to node's directory (and this reporter's:
  // it runs in node's process).
  const isFile = (d) => d.nesting === 0 && typeof d.name === 'string' && !!d.file &&
    (pathOf(d.name) === pathOf(d.file) || resolve(pathOf(d.name)) === pathOf(d.file));
  const lines = [];
  const emit = (o) => lines.push(JSON.stringify(o) + '\n');
  const flushPending = (s) => {
    if (!s.pending) return;
    const p = s.pending;
    s.pending = null;
    s.started.add(p.title);
    s.current = p.title;
    emit({ e: 'start', file: p.file, name: p.title, line: p.line });
  };

  // endOf is the end line of a test, a describe block or a parent test;
  // parent is the full title of the one around it (for a cancelled test).
  const endOf = (s, file, d, type, title, name, parent) => {
    const key = keyOf(d);
    const suite = s.parents.has(key) || d.details?.type === 'suite';
    const o = { e: 'end', file, name, line: d.line, ms: d.details?.duration_ms ?? 0 };
    if (name !== title) o.title = title; // for the rerun: node knows the test by it
    if (d.skip !== undefined && d.skip !== false) {
      o.status = 'skipped';
      if (typeof d.skip === 'string') o.reason = d.skip;
    } else if (d.todo !== undefined && d.todo !== false) {
      o.status = 'todo';
      if (typeof d.todo === 'string') o.reason = d.todo;
    } else if (cancelledWith(type, d)) {
      o.status = 'cancelled';
      o.parent = parent;
    } else {
      o.status = type === 'test:pass' ? 'passed' : 'failed';
    }
    if (suite) {
      o.suite = true;
      o.started = s.started.has(name);
      if (d.details?.type === 'suite') o.block = true;
      else if (TYPED) o.test = true;
    }
    if (o.status === 'failed' || o.status === 'cancelled') o.fail = failure(d);
    if (s.current === name) s.current = '';
    return o;
  };
  // Tests node cancels before it dequeues them (those of a describe block
  // whose before hook failed) come with no event that names their blocks:
  // node reports a block after its tests and blocks, so an orphan holds
  // its own title and those of the undequeued blocks around it that ended
  // since, until an event of a dequeued test comes (the block around them
  // all). Then they are sent, in order.
  const flushOrphans = (s) => {
    for (const o of s.orphans.splice(0)) {
      // A test --test-name-pattern leaves out: node cancels it too.
      if (o.d.skip === 'test name does not match pattern') continue;
      const top = o.nesting - o.path.length + 1; // the depth of the outermost title it holds
      const around = s.stack.slice(0, top).map((p) => p.name).concat(o.path.slice(0, -1));
      const title = around.concat(o.d.name).join(SEP);
      const name = numbered(s, title);
      const parent = around.join(SEP);
      emit(endOf(s, o.file, o.d, o.type, title, name, parent));
    }
  };

  const it = source[Symbol.asyncIterator]();
  let next = it.next();
  const WAIT = Symbol('wait');
  for (;;) {
    let r;
    const waiting = [...files.values()].some((s) => s.pending);
    if (waiting) {
      let timer;
      r = await Promise.race([next, new Promise((res) => { timer = setTimeout(res, SUITE_WAIT_MS, WAIT); })]);
      clearTimeout(timer);
      if (r === WAIT) {
        for (const s of files.values()) flushPending(s);
        yield lines.splice(0).join('');
        continue;
      }
    } else {
      r = await next;
    }
    if (r.done) break;
    next = it.next();
    const { type, data } = r.value;
    const d = data || {};
    // node 22 names a test file's stderr by its path relative to node's
    // directory, its tests by their absolute one.
    const file = d.file ? resolve(pathOf(d.file)) : d.file;
    switch (type) {
      case 'test:enqueue':
      case 'test:dequeue': {
        if (!file || isFile(d)) break;
        const s = state(file);
        if (d.nesting > 0) {
          const parent = s.stack[d.nesting - 1];
          if (parent) {
            s.parents.add(parent.key);
            if (s.pending && s.pending.key === parent.key) s.pending = null;
          }
        }
        if (type === 'test:enqueue') break;
        flushPending(s);
        flushOrphans(s);
        s.stack.length = d.nesting;
        const title = s.stack.map((p) => p.name).concat(d.name).join(SEP);
        const key = keyOf(d);
        s.stack[d.nesting] = { name: d.name, key, title };
        let q = s.titles.get(key);
        if (!q) s.titles.set(key, (q = []));
        const name = numbered(s, title);
        q.push({ name, title });
        s.pending = { file, title: name, line: d.line, key };
        s.tests++;
        break;
      }
      case 'test:pass':
      case 'test:fail': {
        if (!file) break;
        const s = state(file);
        if (isFile(d)) {
          // A test file that ran no test of its own (a script of plain
          // asserts, a helper under test/) is one test to node, named by
          // the file, and counted. Any other file ends with an event of
          // its own only when its process failed.
          if (type === 'test:pass' && s.tests === 0 && !s.planned) {
            emit({ e: 'end', file, name: '', whole: true, line: 1, status: 'passed', ms: d.details?.duration_ms ?? 0 });
          }
          if (type === 'test:fail') {
            const err = (d.details && d.details.error) || {};
            const o = { e: 'file', file, ms: d.details?.duration_ms ?? 0, tests: s.tests, signal: err.signal || '', code: err.exitCode ?? null };
            o.error = loadError(file, s.stderr);
            if (s.tests === 0 && !err.signal && isDir(file)) {
              // node 21 and later read each argument of node --test as a
              // glob, and run a directory that names no file as a test
              // file, which does not load (node 20 ran the files in it).
              const rel = relative(process.cwd(), file) || '.';
              o.error.message = `node ran the directory ${rel}/ as a test file: node 21 and later read each argument of node --test as a glob, not a directory; name its files with a glob ("${rel}/**/*.{js,cjs,mjs}"), or leave it out (node finds ${rel === 'test' ? 'test/**' : 'its own files'} itself): ${o.error.message}`;
              o.error.found = true;
            }
            // A file that ran no test and printed an error did not load; one
            // that exited early (process.exit in a test) printed none.
            // One whose top-level assert failed ran as a test of its own, and
            // failed.
            if (s.tests === 0 && !err.signal && o.error.assertion) o.whole = true;
            else if (s.tests === 0 && !err.signal && o.error.found) o.load = true;
            else if (s.afterEnd && !o.error.found) o.error = { ...s.afterEnd, file };
            else Object.assign(o.error, jsStack(s.stderr, file));
            delete o.error.found;
            delete o.error.assertion;
            o.stderr = clip(clean(s.stderr.slice(-8192)), 8192);
            emit(o);
          }
          break;
        }
        const key = keyOf(d);
        const q = s.titles.get(key);
        const got = q && q.shift();
        if (q && q.length === 0) s.titles.delete(key);
        if (s.pending && s.pending.key === key) s.pending = null;
        if (!got && cancelledWith(type, d)) {
          // Cancelled before it ran, never dequeued: an orphan, which
          // claims the orphans deeper than it that ended since.
          for (let i = s.orphans.length - 1; i >= 0 && s.orphans[i].nesting > d.nesting; i--) {
            const o = s.orphans[i];
            if (o.nesting - o.path.length + 1 === d.nesting + 1) o.path.unshift(d.name);
          }
          s.orphans.push({ file, d, type, nesting: d.nesting, path: [d.name] });
          break;
        }
        flushOrphans(s);
        // Any other test not dequeued: its title comes from the blocks
        // open at its depth.
        const title = got ? got.title : s.stack.slice(0, d.nesting).map((p) => p.name).concat(d.name).join(SEP);
        const name = got ? got.name : numbered(s, title);
        if (typeof d.skip === 'string' && d.skip === 'test name does not match pattern') break;
        const up = s.stack[d.nesting - 1];
        const o = endOf(s, file, d, type, title, name, d.nesting > 0 && up ? up.title : '');
        if (type === 'test:fail' && pending(d)) {
          if (got) {
            s.unsettled = name;
          } else if (s.unsettled) {
            // Never dequeued, so never run: node cancelled it as the test
            // before it, which never settled, held the file open.
            Object.assign(o, { status: 'cancelled', parent: s.unsettled });
            o.fail.kind = 'unrun';
          }
        }
        emit(o);
        break;
      }
      case 'test:stdout':
      case 'test:stderr': {
        if (!file) break;
        const s = state(file);
        const text = d.message ?? '';
        // node 22's lines about an inspector strobe opened, which node's
        // own filter misses: no test's output.
        if (type === 'test:stderr' && INSPECTOR.test(text)) break;
        if (type === 'test:stderr' && s.stderr.length < 65536) s.stderr += text;
        if (s.out >= OUT_BUDGET) break;
        s.out += text.length;
        const o = { e: 'out', file, name: s.current, stream: type === 'test:stdout' ? 'stdout' : 'stderr', text };
        if (s.out >= OUT_BUDGET) o.cut = true;
        emit(o);
        break;
      }
      case 'test:plan': {
        // A file's own plan comes only from a file that ran node:test's
        // root with no test reported: on node 22, one whose tests
        // --test-name-pattern all left out (node 20 reports them, skipped).
        // It ran tests, none of them selected: it is no test of its own.
        if (file && d.nesting === 0) state(file).planned = true;
        break;
      }
      case 'test:diagnostic': {
        const late = AFTER_END.exec(clean(d.message || ''));
        if (late) {
          const s = state(file || resolve(pathOf(late[2])));
          if (!s.afterEnd) s.afterEnd = { message: late[1], line: +late[3] };
          break;
        }
        if (d.nesting === 0 && !d.file) {
          const m = /^(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) ([\d.]+)$/.exec(d.message || '');
          if (m) {
            totals[m[1]] = +m[2];
            break;
          }
        }
        break;
      }
    }
    if (lines.length) yield lines.splice(0).join('');
  }
  for (const s of files.values()) {
    flushPending(s);
    flushOrphans(s);
  }
  emit({ e: 'summary', counts: totals });
  emit({ e: 'done' });
  yield lines.splice(0).join('');
}


// jsStack reads where a dying process was from the JavaScript stack node
// prints on abort ("1: /p/test/a.test.js:3:32", "2: fn (file:line:col)").
function jsStack(stderr, file) {
  const i = stderr.indexOf('----- JavaScript stack trace -----');
  if (i < 0) return {};
  for (const l of stderr.slice(i).split('\n')) {
    const m = /^\d+: (?:.*? \()?(\/.+?):(\d+):(\d+)\)?$/.exec(l.trim());
    if (m && !m[1].includes('/node_modules/')) return { file: pathOf(m[1]), line: +m[2], message: 'the process aborted' };
  }
  return {};
}
