// strobe's setup file in every jest process that runs test files (the
// workers, or jest's own process in band): strobe's reporter adds it to
// each project's setupFilesAfterEnv. It says which process runs the file
// ("worker", with its pid), in the reporter's events file; the reporter
// says when the file is done ("fileDone"). A worker done with its files
// waits on its pipe for more, without a timeout: the stuck detector
// judges the processes that run a file, so that those waits do not make
// a test's promise that never settles read as blocked on I/O.
'use strict';

const fs = require('fs');

const out = process.env.STROBE_JEST_EVENTS;
if (out) {
  try {
    const {expect} = typeof globalThis.expect === 'function' ? globalThis : require('@jest/globals');
    const file = expect.getState().testPath;
    if (file) fs.appendFileSync(out, JSON.stringify({ev: 'worker', file, pid: process.pid}) + '\n');
  } catch (_) {
    // no word from this process: the detector judges every worker
  }
}

// The errors an AggregateError holds (Promise.any), which jest's message
// leaves out, reach strobe's reporter only as worker.cjs writes them down
// here, in the test's realm, as each test ends (jest-circus's state sets
// its running test anew): jest copies a file's results out of that realm
// property by property (jest-util's deepCyclicCopy), and node 22's V8
// gives each error its stack as an accessor of its own, which the copy
// reads as nothing: the held errors came with their message alone, not
// the stack whose first line names them ("TypeError: …"). From a worker
// the results go through JSON to jest's process, which keeps no property
// an error does not enumerate: the held errors were not there at all, on
// any node. So each AggregateError gets strobeHeld: the first lines of
// the first five errors it holds, and how many it holds; enumerable, it
// survives both. Without jest-circus's state (another runner, another
// jest) nothing changes.
const HELD_SHOWN = 5;

function heldHead(e) {
  let msg;
  try {
    msg = (e && e.message !== undefined ? String(e.message) : String(e)).split('\n')[0];
    const head = e && typeof e.stack === 'string' ? e.stack.split('\n')[0] : '';
    if (head.endsWith(': ' + msg)) return head;
    // (an error of node's realm, fs's, is no instance of the test's Object)
    return e !== null && typeof e === 'object' && typeof e.name === 'string' ? `${e.name}: ${msg}` : msg;
  } catch (_) {
    return msg || 'an error that cannot be read';
  }
}

function writeHeld(test) {
  for (const entry of (test && test.errors) || []) {
    for (const err of Array.isArray(entry) ? entry : [entry]) {
      if (!err || typeof err !== 'object' || !Array.isArray(err.errors) || 'strobeHeld' in err) continue;
      try {
        const heads = err.errors.slice(0, HELD_SHOWN).map(heldHead);
        Object.defineProperty(err, 'strobeHeld', {value: {heads, total: err.errors.length}, enumerable: true, configurable: true});
      } catch (_) {
        // a frozen error: the reporter shows what the copy kept
      }
    }
  }
}

try {
  const sym = Object.getOwnPropertySymbols(globalThis).find((s) => s.description === 'JEST_STATE_SYMBOL');
  const state = sym && globalThis[sym];
  const d = state && Object.getOwnPropertyDescriptor(state, 'currentlyRunningTest');
  if (d && 'value' in d && d.configurable) {
    let running = d.value;
    Object.defineProperty(state, 'currentlyRunningTest', {
      configurable: true,
      enumerable: d.enumerable,
      get() { return running; },
      set(test) {
        if (running && running !== test) writeHeld(running);
        running = test;
      },
    });
  }
} catch (_) {
  // jest's state is not as expected: the reporter shows what the copy kept
}
