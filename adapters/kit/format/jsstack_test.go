package format

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters/adapterstest"
)

func TestParseJSFrame(t *testing.T) {
	for _, tc := range []struct {
		line string
		want JSFrame
		ok   bool
	}{
		{"    at fn (/p/a.js:3:7)", JSFrame{Func: "fn", File: "/p/a.js", Line: 3, Col: 7}, true},
		{"    at /p/a.test.ts:84:22", JSFrame{File: "/p/a.test.ts", Line: 84, Col: 22}, true},
		{"    at async main (file:///p/my%20dir/gen.mjs:6:9)", JSFrame{Func: "main", File: "/p/my dir/gen.mjs", Line: 6, Col: 9, Async: true}, true},
		{"    at new Promise (<anonymous>)", JSFrame{Func: "new Promise", Internal: true}, true},
		{"    at Object.settle [as run] (file:///p/gen.mjs:3:44)", JSFrame{Func: "Object.settle [as run]", File: "/p/gen.mjs", Line: 3, Col: 44}, true},
		{"    at listOnTimeout (node:internal/timers:581:17)", JSFrame{Func: "listOnTimeout", File: "node:internal/timers", Line: 581, Col: 17, Internal: true}, true},
		{"    at evaluated (eval at main (file:///p/gen.mjs:7:9), <anonymous>:1:30)", JSFrame{Func: "evaluated", Line: 1, Col: 30, Internal: true}, true},
		{`    at C:\p\a.js:2:5`, JSFrame{File: `C:\p\a.js`, Line: 2, Col: 5}, true},
		{"    at fn (/p/a.js:9)", JSFrame{Func: "fn", File: "/p/a.js", Line: 9}, true},
		{"Error: boom", JSFrame{}, false},
		{"    at ", JSFrame{}, false},
		{"the test looked at", JSFrame{}, false},
	} {
		got, ok := ParseJSFrame(tc.line)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParseJSFrame(%q) = %+v %v, want %+v %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

// TestParseJSStackGolden reads real stacks: jest's and vitest's from the
// team corpus, node 20's (async, eval, native and internal frames)
// recorded from a script, its paths normalised.
func TestParseJSStackGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/jsstack/*.txt")
	if len(files) == 0 {
		t.Fatal("no recordings")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txt")
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			type stack struct {
				Message string    `json:"message"`
				Frames  []JSFrame `json:"frames"`
			}
			var got []stack
			for _, text := range splitErrors(string(b)) {
				msg, frames := ParseJSStack(text)
				got = append(got, stack{msg, frames})
			}
			adapterstest.Golden(t, "jsstack/"+name, got)
		})
	}
}

// splitErrors cuts a recording of several errors at each line that starts
// a new one (unindented, after frames).
func splitErrors(s string) []string {
	var out []string
	var cur []string
	framed := false
	for _, line := range strings.Split(s, "\n") {
		if framed && line != "" && !strings.HasPrefix(line, " ") {
			out = append(out, strings.Join(cur, "\n"))
			cur, framed = nil, false
		}
		if strings.HasPrefix(strings.TrimSpace(line), "at ") {
			framed = true
		}
		cur = append(cur, line)
	}
	return append(out, strings.Join(cur, "\n"))
}

func TestFirstJSFrameIn(t *testing.T) {
	_, frames := ParseJSStack("Error: x\n    at helper (/p/node_modules/lib/a.js:1:1)\n    at Array.map (<anonymous>)\n    at Object.<anonymous> (/p/test/a.test.js:12:5)\n")
	f, ok := FirstJSFrameIn(frames, func(file string) bool { return !strings.Contains(file, "node_modules/") })
	if !ok || f.File != "/p/test/a.test.js" || f.Line != 12 || f.Col != 5 {
		t.Errorf("FirstJSFrameIn = %+v %v", f, ok)
	}
}

// FuzzParseJSStack: any text reads without a panic, every frame has a
// non-negative position, and a frame's line reads back alone.
func FuzzParseJSStack(f *testing.F) {
	files, _ := filepath.Glob("testdata/jsstack/*.txt")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(string(b))
		}
	}
	f.Add("    at a (b:1:2)\n    at (x:)\n    at ((():9")
	f.Fuzz(func(t *testing.T, s string) {
		_, frames := ParseJSStack(s)
		for _, fr := range frames {
			if fr.Line < 0 || fr.Col < 0 {
				t.Fatalf("negative position %+v", fr)
			}
			if fr.File == "" && fr.Func == "" && !fr.Internal {
				t.Fatalf("empty frame %+v from %q", fr, s)
			}
		}
	})
}
