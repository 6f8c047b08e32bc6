package format

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters/adapterstest"
	"strobe/report"
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
			adapterstest.Golden(t, "python/"+name, ParseFaulthandler(readRecording(t, name+".txt")))
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
		threads    []int // per dump: the frames of each thread
		current    int   // the dumps' threads marked current
		truncated  bool
	}{
		{"one thread", "Stack (most recent call first):\n  File \"x.py\", line 3 in f\n", []int{1}, 1, false},
		{"no python frame", "Thread 0x01 (most recent call first):\n  <no Python frame>\n\nCurrent thread 0x02 (most recent call first):\n  File \"x.py\", line 3 in f\n", []int{0, 1}, 1, false},
		{"current in the middle", "Current thread 0x01 (most recent call first):\n  File \"w.py\", line 3 in spin\n\nThread 0x02 (most recent call first):\n  File \"x.py\", line 3 in <module>\n", []int{1, 1}, 1, false},
		{"3.14 thread name", "Current thread 0x00007f [MainThread] (most recent call first):\n  File \"x.py\", line 3 in f\n", []int{1}, 1, false},
		{"asyncio task after the threads", "Current thread 0x01 (most recent call first):\n  File \"base_events.py\", line 1884 in _run_once\n\nTask 0x02 [Task-1] (most recent call first):\n  File \"locks.py\", line 213 in wait\n  File \"x.py\", line 4 in wait_for_reply\n", []int{1, 2}, 1, false},
		{"strobe's kernel thread ids", "Thread 0x01 tid 4243 (most recent call first):\n  File \"socket.py\", line 294 in accept\n\nCurrent thread 0x02 tid 4242 (most recent call first):\n  File \"x.py\", line 3 in f\n", []int{1, 1}, 1, false},
		{"deep", "Current thread 0x2 (most recent call first):\n  File \"x.py\", line 3 in f\n  ...\n", []int{1}, 1, true},
		{"noise after a blank line", "Current thread 0x2 (most recent call first):\n  File \"x.py\", line 3 in f\n\n  File \"y.py\", line 4 in g\n", []int{1}, 1, false},
		{"not a dump", "Traceback (most recent call last):\n  File \"x.py\", line 3, in f\n", nil, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dumps := ParseFaulthandler(tc.text)
			if tc.threads == nil {
				if len(dumps) != 0 {
					t.Fatalf("dumps %+v, want none", dumps)
				}
				return
			}
			if len(dumps) != 1 {
				t.Fatalf("%d dumps, want 1: %+v", len(dumps), dumps)
			}
			got := dumps[0]
			if len(got) != len(tc.threads) {
				t.Fatalf("%d threads, want %d: %+v", len(got), len(tc.threads), got)
			}
			current := 0
			for i, th := range got {
				if len(th.Frames) != tc.threads[i] {
					t.Errorf("thread %d: %d frames, want %d", i, len(th.Frames), tc.threads[i])
				}
				if th.Current {
					current++
				}
			}
			if current != tc.current {
				t.Errorf("%d current threads, want %d", current, tc.current)
			}
			if last := got[len(got)-1]; strings.HasPrefix(tc.name, "asyncio task") && (!last.Task || last.Name != "Task-1" || last.Current) {
				t.Errorf("last %+v, want the asyncio task Task-1, not current", last)
			}
			if strings.HasPrefix(tc.name, "strobe's") && (got[0].TID != 4243 || got[1].TID != 4242 || got[1].ID != "0x02") {
				t.Errorf("threads %+v, want tids 4243 and 4242", got)
			}
			if got[len(got)-1].Truncated != tc.truncated {
				t.Errorf("truncated = %v, want %v", got[len(got)-1].Truncated, tc.truncated)
			}
		})
	}
}

// TestParseFaulthandlerDumps: dumps appended one after another are told
// apart, even when the first was cut short.
func TestParseFaulthandlerDumps(t *testing.T) {
	dump := "Thread 0x1 (most recent call first):\n  File \"a.py\", line 1 in a\n\nCurrent thread 0x2 (most recent call first):\n  File \"b.py\", line 2 in <module>\n"
	cut := "Thread 0x1 (most recent call first):\n  File \"a.py\", line 9 in a\n"
	dumps := ParseFaulthandler(cut + dump + dump)
	if len(dumps) != 3 || len(dumps[0]) != 1 || len(dumps[1]) != 2 || len(dumps[2]) != 2 || dumps[2][0].Frames[0].Line != 1 {
		t.Errorf("ParseFaulthandler = %+v, want a cut dump and two whole ones", dumps)
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
		for _, d := range ParseFaulthandler(text) {
			if len(d) == 0 {
				t.Fatal("an empty dump")
			}
			for _, th := range d {
				for _, fr := range th.Frames {
					if fr.Line < 0 {
						t.Fatalf("frame %+v", fr)
					}
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

func TestPytestCounts(t *testing.T) {
	got := PytestCounts("1 failed, 3 passed, 2 skipped, 1 xfailed, 1 xpassed, 2 errors in 0.12s")
	want := report.Summary{Passed: 4, Failed: 3, Skipped: 3}
	if *got != want {
		t.Errorf("PytestCounts = %+v, want %+v", *got, want)
	}
}
