import { test } from 'vitest';

// Fixtures for the stuck detector under vitest's worker pools; the test
// to run is chosen with -t.

function spinForever() {
  let x = 0;
  for (;;) {
    x = (x + 1) % 1000003;
  }
}

test('busy loop', () => {
  spinForever();
});

test('never settles', async () => {
  setInterval(() => {}, 200);
  await new Promise(() => {});
});

test('promise forever', async () => {
  await new Promise(() => {});
});

test('awaits a child', async () => {
  const { spawn } = await import('node:child_process');
  const child = spawn('sleep', ['1000'], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('exit', resolve));
});
