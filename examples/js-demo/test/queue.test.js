import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Queue } from '../queue.js';

test('pop returns items in order', () => {
  const q = new Queue(3);
  q.push(1);
  q.push(2);
  assert.equal(q.pop(), 1);
  assert.equal(q.pop(), 2);
});

test('push refuses a full queue', () => {
  const q = new Queue(1);
  q.push('a');
  q.push('b');
  assert.equal(q.size, 1);
});

test('peek on an empty queue', () => {
  const q = new Queue(1);
  assert.equal(q.peek(), undefined);
});
