// strobe's preload for node:test's test file processes, loaded with
// --require (node --test gives each file's process the options it was
// given). A test that calls process.exit ends its file's process before
// node has written the results of the tests that ran: node reports what
// reached it, and with exit code 0 counts the file passed. This writes the
// call, its code and its stack, synchronously, to exits.jsonl beside this
// file, for strobe to name the test that called it. Written for strobe; no
// dependencies.
'use strict';

const { isMainThread } = require('node:worker_threads');

// NODE_TEST_CONTEXT is set in the test files' processes only, not in the
// `node --test` process that runs them; a worker's exit ends the worker.
if (process.env.NODE_TEST_CONTEXT && isMainThread) {
  const fs = require('node:fs');
  const path = require('node:path');
  const out = path.join(__dirname, 'exits.jsonl');
  const exit = process.exit;
  process.exit = function exitSeenByStrobe(code) {
    try {
      const c = Number(code === undefined ? process.exitCode : code) || 0;
      fs.appendFileSync(out, JSON.stringify({ file: process.argv[1], code: c, stack: String(new Error().stack) }) + '\n');
    } catch {
      // the run goes on as without strobe
    }
    return exit.apply(this, arguments);
  };
}
