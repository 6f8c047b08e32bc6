package node

import "testing"

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
