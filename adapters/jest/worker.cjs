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
