package node

import (
	"strings"
	"testing"
)

func TestDeclaredAt(t *testing.T) {
	src := `import { describe, test, expect } from 'vitest'

function spin() {
  for (;;) {}
}

test('adds', () => {
  expect(1 + 1).toBe(2)
})

describe("carry", () => {
  const x = 1
  it.concurrent('tens', async () => {
    spin()
  })
  describe(` + "`deep`" + `, () => {
    test('it\'s \"quoted\"', () => { for (;;) {} })
  })
})

test.each([1, 2])('case %i', (n) => {
  spin()
})

test.skipIf(process.env.CI)("waits", async () => {
  await new Promise(() => {})
})
`
	for _, tc := range []struct {
		line int
		want string
	}{
		{8, "adds"},
		{7, "adds"},
		{14, "carry > tens"},
		{17, "carry > deep > it's \"quoted\""},
		{12, ""}, // a block's own code
		{4, ""},  // a helper outside any test
		{22, ""}, // test.each: its name is each case's
		{26, "waits"},
		{1, ""},
		{99, ""},
	} {
		got, ok := DeclaredAt(src, tc.line)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("line %d: %q, %t; want %q", tc.line, got, ok, tc.want)
		}
	}
}

// TestFramePlace: one reader for the frames of V8's stack text and of a
// stuck capture, which node:test's exit calls, its stuck naming and
// vitest's read each in a way of their own.
func TestFramePlace(t *testing.T) {
	for frame, want := range map[string]struct {
		file string
		line int
	}{
		"    at TestContext.<anonymous> (/p/test/a.test.js:28:11)": {"/p/test/a.test.js", 28},
		"    at /p/test/a.test.js:9:3":                             {"/p/test/a.test.js", 9},
		"    at new Foo (file:///p/my%20dir/a.mjs:4:1)":            {"/p/my dir/a.mjs", 4},
		"<anonymous> (test/debounce.test.js:34:3)":                 {"test/debounce.test.js", 34},
		"spinForever (hang.test.js:8)":                             {"hang.test.js", 8},
		"runInAsyncScope (node:async_hooks:206:9)":                 {"node:async_hooks", 206},
		"Error: boom":                        {},
		"    at async Promise.all (index 0)": {},
	} {
		file, line, ok := FramePlace(frame)
		if file != want.file || line != want.line || ok != (want.file != "") {
			t.Errorf("FramePlace(%q) = %q, %d, %v; want %q, %d", frame, file, line, ok, want.file, want.line)
		}
	}
}

// TestDeclaredPath: node:test's tests nest (t.test, a test() in a test's
// body), and a hang in a subtest is the subtest's, under its parents.
func TestDeclaredPath(t *testing.T) {
	src := `const test = require('node:test')
const { describe } = test

test('outer', async (t) => {
  await t.test('fine', () => {})
  await t.test('mid', async (ctx) => {
    await ctx.test("deep", () => {
      for (;;) {}
    })
  })
  await t.test('one line', () => new Promise(() => {}))
  for (const n of [1, 2]) {
    await t.test(` + "`case ${n}`" + `, async (t) => {
      await t.test('leaf', () => { for (;;) {} })
    })
  }
  if (/x/.test('x')) {}
  re.test('y') && spin()
})

describe('block', () => {
  test('parent', (t) => {
    test('nested', () => {
      for (;;) {}
    })
  })
})
test('loops', async (t) => {
  await t.test('fine', () => {})
  try {
    for (;;) {}
  } finally {}
})
`
	for _, tc := range []struct {
		line int
		want string
	}{
		{31, "loops (test)"}, // below a subtest that had ended, deeper than it
		{8, "outer › mid › deep (test test test)"},
		{7, "outer › mid › deep (test test test)"}, // the call: the subtest it runs
		{6, "outer › mid (test test)"},
		{5, "outer › fine (test test)"},
		{11, "outer › one line (test test)"},
		{14, "outer (test)"}, // under a subtest named at run time: its parent
		{17, "outer (test)"},
		{18, "outer (test)"},
		{24, "block › parent › nested (block test test)"},
		{22, "block › parent (block test)"},
		{21, ""},
		{1, ""},
	} {
		path, ok := DeclaredPath(src, tc.line)
		var titles, kinds []string
		for _, d := range path {
			titles = append(titles, d.Title)
			kinds = append(kinds, map[bool]string{true: "test", false: "block"}[d.Test])
		}
		got := ""
		if ok {
			got = strings.Join(titles, Sep) + " (" + strings.Join(kinds, " ") + ")"
		}
		if got != tc.want {
			t.Errorf("line %d: %q; want %q", tc.line, got, tc.want)
		}
	}
	// jest's and vitest's tests do not nest: unchanged.
	if got, ok := DeclaredAt(src, 8); got != "outer" || !ok {
		t.Errorf("DeclaredAt line 8: %q, %t; want outer", got, ok)
	}
}
