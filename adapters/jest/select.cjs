// strobe's setup file for a jest run that selects a test or a describe
// block by name (STROBE_JEST_SELECT: its describe blocks and title joined
// with " › "). strobe's reporter adds it to each project's
// setupFilesAfterEnv as the run begins. jest's -t is a regexp over the
// titles joined by spaces, ignoring case: strobe's takes the name and
// whatever follows it after a space, so that a block's tests match, and
// lets through a sibling block whose name merely begins the same
// ("parse errors" beside "parse"), or a test ("parse all"). Once the file
// has declared its tests, and before any runs, this file's beforeAll, the
// first of the file's root block, marks skipped every test that is neither
// the test named nor in the block named, and every block left with no
// test, so that their hooks do not run either; the reporter leaves them
// out. Under several projects a name may end with its project's tag,
// "NAME [one]", which this file cannot tell from a title's end: it takes
// the name with and without it, and the reporter keeps the project's.
//
// The reporter also adds this file to a run that filters tests by -t
// without a name (several tests, STROBE_JEST_SELECT unset): there it only
// keeps the snapshots of the tests left out (see keepSnapshots).
'use strict';

const SEP = ' \u203a ';
const name = process.env.STROBE_JEST_SELECT || '';
// The name, without a project's tag, and without the number strobe gives
// the second test of a name in a file ("NAME #2"), which jest names as the
// first: -t lets every test of that name through, narrow keeps the one.
const untagged = name.replace(/ \[[^[\]]+\]$/, '');
const names = [name, untagged, untagged.replace(/ #([2-9]|[1-9][0-9]+)$/, '')];
const {beforeAll, expect} = typeof globalThis.beforeAll === 'function' ? globalThis : require('@jest/globals');

// A numbered name selects that test alone: jest runs every test of its
// name, and the others, whose failures the answer leaves out, would fail
// the run. The file's tests are numbered in the order it declares them,
// as the reporter numbers them in the order they run.
const numberedSel = names[2] !== untagged;

if (name) {
  beforeAll(function strobeSelect() {
    const state = circusState(strobeSelect);
    if (state) narrow(state.rootDescribeBlock, '', {counts: new Map(), used: new Set()});
  });
}

// jest keeps the snapshots of a test skipped (by -t, or here) or failed:
// as the file ends it marks checked the keys of the test's name (`NAME
// 1`, `NAME 2`), but not those a hint names (toMatchSnapshot('hint'),
// `NAME: hint 1`), which babel-plugin-tester gives every snapshot. So a
// run of one test counted the others' obsolete, and failed although the
// test passed (dmnd/dedent's macro tests), where jest -u, as on a rerun,
// deletes them. This file makes jest's marking take those keys too. It
// runs as the file loads, whether or not any of its tests is selected
// (a file -t takes no test from runs no hook).
keepSnapshots();

function keepSnapshots() {
  const snaps = expect && typeof expect.getState === 'function' && expect.getState().snapshotState;
  if (!snaps || typeof snaps.markSnapshotsAsCheckedForTest !== 'function' || typeof snaps.getUncheckedKeys !== 'function') return;
  const mark = snaps.markSnapshotsAsCheckedForTest;
  snaps.markSnapshotsAsCheckedForTest = function (testName) {
    mark.call(this, testName);
    for (const key of this.getUncheckedKeys()) {
      const test = key.replace(/ \d+$/, '');
      if (test.startsWith(testName + ': ')) mark.call(this, test);
    }
  };
}

// circusState is jest-circus's state, the tree of the file's blocks and
// tests, kept on the global under a symbol of its own. jest 30 has two
// (its runner's and its module's): the runner's holds this hook.
function circusState(hook) {
  for (const s of Object.getOwnPropertySymbols(globalThis)) {
    const state = s.description === 'JEST_STATE_SYMBOL' && globalThis[s];
    const root = state && state.rootDescribeBlock;
    if (root && Array.isArray(root.hooks) && root.hooks.some((h) => h.fn === hook)) return state;
  }
  return null;
}

// narrow skips what the selection does not take under block, whose full
// name is prefix, and tells whether it took anything.
function narrow(block, prefix, seen) {
  let any = false;
  for (const child of block.children || []) {
    const full = prefix ? prefix + SEP + child.name : child.name;
    let taken;
    if (child.type === 'describeBlock') taken = narrow(child, full, seen);
    else if (numberedSel) taken = [name, untagged].includes(numbered(seen, full));
    else taken = names.some((n) => full === n || full.startsWith(n + SEP));
    if (taken) any = true;
    else child.mode = 'skip';
  }
  return any;
}

// wellFormed is the reporter's: each lone surrogate becomes U+FFFD.
function wellFormed(name) {
  return typeof name.toWellFormed === 'function'
    ? name.toWellFormed()
    : name.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

// numbered is strobe's name for the next test of a full name in the file,
// as the reporter's numbered gives it.
function numbered(seen, full) {
  full = wellFormed(full);
  let n = (seen.counts.get(full) || 0) + 1;
  let got = n === 1 ? full : `${full} #${n}`;
  while (seen.used.has(got)) got = `${full} #${++n}`;
  seen.counts.set(full, n);
  seen.used.add(got);
  return got;
}
