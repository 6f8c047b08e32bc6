'use strict';
// Fixtures for the stuck detector's JavaScript stacks: node hang.js MODE [N].

// marker writes a timestamped line to $STROBE_MARK_FILE, when set, where a
// fixture blocks or starts spinning, so benchmarks can time the verdict.
function marker(what) {
  const path = process.env.STROBE_MARK_FILE;
  if (path) require('node:fs').appendFileSync(path, `STROBE-MARK ${what} ${(Date.now() / 1000).toFixed(3)}\n`);
}

function spinForever() {
  marker('busy');
  let x = 0;
  for (;;) {
    x = (x + 1) % 1000003;
  }
}

async function neverSettles() {
  // The interval keeps the event loop alive; the promise never settles.
  setInterval(() => {}, 200);
  marker('promise');
  await new Promise(() => {});
}

function waitForever() {
  // A wait on shared memory nobody will notify: a futex without timeout.
  marker('atomics');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}

async function sleepThenPass(seconds) {
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  console.log('slept');
}

function workFor(seconds) {
  // Honest CPU work: each round calls different functions on growing data.
  const end = Date.now() + seconds * 1000;
  let primes = 0;
  let n = 2;
  const seen = new Map();
  while (Date.now() < end) {
    if (isPrime(n)) primes++;
    seen.set(n % 9973, String(n).split('').reverse().join(''));
    if (n % 5000 === 0) JSON.parse(JSON.stringify([...seen.entries()].slice(0, 200)));
    n++;
  }
  console.log('primes', primes);
}

function isPrime(n) {
  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
  return true;
}

async function serverNeverSettles() {
  // An http server keeps the event loop alive; its only timer is its own
  // unref'd check of its connections every 30 s.
  const server = require('node:http').createServer((req, res) => res.end());
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  marker('server');
  await new Promise(() => {});
}

const [mode, arg] = process.argv.slice(2);
if (require('node:worker_threads').isMainThread) console.log('mode', mode);
switch (mode) {
  case 'busy':
    spinForever();
    break;
  case 'atomics':
    waitForever();
    break;
  case 'promise':
    neverSettles();
    break;
  case 'server':
    serverNeverSettles();
    break;
  case 'sleep':
    sleepThenPass(Number(arg || 9));
    break;
  case 'workerbusy': {
    // A worker thread spins (vitest's threads pool runs tests so).
    const { Worker } = require('node:worker_threads');
    new Worker(__filename, { argv: ['busy'] });
    break;
  }
  case 'forkbusy':
    // A child process spins while its parent waits for it (jest's workers).
    require('node:child_process').fork(__filename, ['busy']);
    break;
  case 'work':
    workFor(Number(arg || 10));
    break;
  default:
    console.error('usage: node hang.js busy|workerbusy|forkbusy|atomics|promise|sleep N|work N');
    process.exit(2);
}
