package format

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters/adapterstest"
)

// The recordings under testdata/python are CPython 3.11's own output,
// paths normalised (/project for the fixture, /usr/local for the
// interpreter): faulthandler dumps strobe's SIGUSR2 registration wrote
// for stuck/testdata/python/hang.py, py-spy 0.4's JSON dump of the same
// deadlock, and a chained traceback.

func readRecording(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "python", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseFaulthandlerGolden(t *testing.T) {
	for _, name := range []string{"faulthandler-deadlock", "faulthandler-fib-twice"} {
		t.Run(name, func(t *testing.T) {
			all := ParseFaulthandler(readRecording(t, name+".txt"))
			adapterstest.Golden(t, "python/"+name, map[string]any{"all": all, "last": LastFaulthandlerDump(all)})
		})
	}
}

func TestParsePySpyJSONGolden(t *testing.T) {
	threads, err := ParsePySpyJSON([]byte(readRecording(t, "py-spy-deadlock.json")))
	if err != nil {
		t.Fatal(err)
	}
	adapterstest.Golden(t, "python/py-spy-deadlock", threads)
	if _, err := ParsePySpyJSON([]byte("Error: Failed to find python version")); err == nil {
		t.Error("ParsePySpyJSON took py-spy's error text")
	}
}

func TestParsePythonTracebacksGolden(t *testing.T) {
	adapterstest.Golden(t, "python/traceback-chained", ParsePythonTracebacks(readRecording(t, "traceback-chained.txt")))
}

func TestParseFaulthandler(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		threads    int
		frames     []int
		current    []bool
		truncated  bool
	}{
		{"one thread", "Stack (most recent call first):\n  File \"x.py\", line 3 in f\n", 1, []int{1}, []bool{true}, false},
		{"no python frame", "Thread 0x01 (most recent call first):\n  <no Python frame>\n\nCurrent thread 0x02 (most recent call first):\n  File \"x.py\", line 3 in f\n", 2, []int{0, 1}, []bool{false, true}, false},
		{"3.14 thread name", "Current thread 0x00007f [MainThread] (most recent call first):\n  File \"x.py\", line 3 in f\n", 1, []int{1}, []bool{true}, false},
		{"deep", "Current thread 0x2 (most recent call first):\n  File \"x.py\", line 3 in f\n  ...\n", 1, []int{1}, []bool{true}, true},
		{"noise after a blank line", "Current thread 0x2 (most recent call first):\n  File \"x.py\", line 3 in f\n\n  File \"y.py\", line 4 in g\n", 1, []int{1}, []bool{true}, false},
		{"not a dump", "Traceback (most recent call last):\n  File \"x.py\", line 3, in f\n", 0, nil, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ParseFaulthandler(tc.text)
			if len(got) != tc.threads {
				t.Fatalf("%d threads, want %d: %+v", len(got), tc.threads, got)
			}
			for i, th := range got {
				if len(th.Frames) != tc.frames[i] || th.Current != tc.current[i] {
					t.Errorf("thread %d: %d frames current=%v, want %d current=%v", i, len(th.Frames), th.Current, tc.frames[i], tc.current[i])
				}
			}
			if tc.threads > 0 && got[len(got)-1].Truncated != tc.truncated {
				t.Errorf("truncated = %v, want %v", got[len(got)-1].Truncated, tc.truncated)
			}
		})
	}
}

func TestLastFaulthandlerDump(t *testing.T) {
	dump := "Thread 0x1 (most recent call first):\n  File \"a.py\", line 1 in a\n\nCurrent thread 0x2 (most recent call first):\n  File \"b.py\", line 2 in b\n"
	cut := "Thread 0x1 (most recent call first):\n  File \"a.py\", line 9 in a\n"
	got := LastFaulthandlerDump(ParseFaulthandler(dump + dump + cut))
	if len(got) != 2 || got[0].Frames[0].Line != 1 || !got[1].Current {
		t.Errorf("LastFaulthandlerDump = %+v, want the second whole dump", got)
	}
}

func TestParsePythonTracebacks(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string // per traceback: innermost func, exception
	}{
		{"assertion", "Traceback (most recent call last):\n  File \"t.py\", line 2, in test_x\n    assert 9 == 10\nAssertionError: assert 9 == 10\n", []string{"test_x", "AssertionError: assert 9 == 10"}},
		{"bare exception", "Traceback (most recent call last):\n  File \"t.py\", line 2, in <module>\n    raise KeyboardInterrupt\nKeyboardInterrupt\n", []string{"<module>", "KeyboardInterrupt"}},
		{"recursion", "Traceback (most recent call last):\n  File \"t.py\", line 2, in f\n    f()\n  [Previous line repeated 996 more times]\nRecursionError: maximum recursion depth exceeded\n", []string{"f", "RecursionError: maximum recursion depth exceeded"}},
		{"indented in a log", "E   Traceback (most recent call last):\n", nil},
		{"exception group", "  + Exception Group Traceback (most recent call last):\n  |   File \"t.py\", line 1, in <module>\n  | ExceptionGroup: two (2 sub-exceptions)\n  +-+---------------- 1 ----------------\n    | Traceback (most recent call last):\n    |   File \"t.py\", line 5, in g\n    |     raise ValueError(1)\n    | ValueError: 1\n", []string{"g", "ValueError: 1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, tb := range ParsePythonTracebacks(tc.text) {
				fn := ""
				if len(tb.Frames) > 0 {
					fn = tb.Frames[0].Func
				}
				got = append(got, fn, tb.Exception)
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// FuzzParsePython: whatever the text, the Python readers return without
// panicking, and every frame they return has a file and a line ≥ 0.
func FuzzParsePython(f *testing.F) {
	for _, name := range []string{"faulthandler-deadlock.txt", "faulthandler-fib-twice.txt", "traceback-chained.txt", "py-spy-deadlock.json"} {
		f.Add(readRecording(f, name))
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, th := range LastFaulthandlerDump(ParseFaulthandler(text)) {
			for _, fr := range th.Frames {
				if fr.Line < 0 {
					t.Fatalf("frame %+v", fr)
				}
			}
		}
		for _, tb := range ParsePythonTracebacks(text) {
			for _, fr := range tb.Frames {
				if fr.Line < 0 {
					t.Fatalf("frame %+v", fr)
				}
			}
		}
		ParsePySpyJSON([]byte(text))
	})
}
