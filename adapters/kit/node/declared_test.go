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
