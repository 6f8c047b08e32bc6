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
