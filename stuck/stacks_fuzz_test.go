package stuck

import (
	"os"
	"runtime"
	"strings"
	"testing"
)

// The fuzz targets below feed the stack readers what a debugger or a
// runtime could print, and what strobe then makes of the stacks (Threads,
// SuggestedTraces), which must never panic whatever the tool printed: a
// capture is taken when a run is already in trouble. Plain `go test` runs
// them on their seeds; `make fuzz` mutates them.
//
// testdata/recorded/go-test-panic.txt is golang/go's
// src/cmd/internal/test2json/testdata/panic.test (BSD-3-Clause), a real
// `go test -v` panic with its goroutine trace.

// fuzzRecorded reads the recorded tool outputs for seeds.
func fuzzRecorded(f *testing.F, names ...string) []string {
	f.Helper()
	var out []string
	for _, n := range names {
		b, err := os.ReadFile("testdata/recorded/" + n)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// fuzzShape runs what the runner does with a capture's stacks.
func fuzzShape(t *testing.T, stacks []Stack) {
	t.Helper()
	c := Capture{Stacks: stacks}
	Threads(c, "/project")
	SuggestedTraces(c, "/project", []string{"TestSomething", "main"})
}

func FuzzParseGoroutines(f *testing.F) {
	for _, s := range fuzzRecorded(f, "go-test-panic.txt") {
		f.Add(s)
	}
	// This process's own goroutines, as the Go runtime prints them.
	buf := make([]byte, 64<<10)
	f.Add(string(buf[:runtime.Stack(buf, true)]))
	f.Add("goroutine 18 gp=0xc000102380 m=nil [sync.WaitGroup.Wait, 2 minutes]:\nsync.(*WaitGroup).Wait(0xc0000a4010)\n\t/usr/local/go/src/sync/waitgroup.go:118 +0x48\n...additional frames elided...\n")
	f.Fuzz(func(t *testing.T, text string) {
		stacks := ParseGoroutines(text)
		for _, s := range stacks {
			if !strings.HasPrefix(s.Name, "goroutine ") {
				t.Errorf("stack named %q, not a goroutine", s.Name)
			}
		}
		fuzzShape(t, stacks)
	})
}

func FuzzParseEuStack(f *testing.F) {
	for _, s := range fuzzRecorded(f, "eu-stack-deadlock.txt", "gdb-deadlock.txt") {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, out []byte) {
		fuzzShape(t, parseEuStack(out))
	})
}

func FuzzParseGDB(f *testing.F) {
	for _, s := range fuzzRecorded(f, "gdb-deadlock.txt", "eu-stack-deadlock.txt") {
		f.Add([]byte(s))
	}
	// gdbGoroutines' listing of a Go program's goroutines.
	f.Add([]byte("STROBE-GOROUTINE 1 chan receive\n#0  runtime.gopark (unlockf=0x0) at /usr/local/go/src/runtime/proc.go:435\n#1  0x000000000046a7d5 in main.main () at /p/main.go:12\n"))
	f.Fuzz(func(t *testing.T, out []byte) {
		fuzzShape(t, parseGDB(out))
	})
}

func FuzzParseMacSample(f *testing.F) {
	f.Add(macSample)
	f.Fuzz(func(t *testing.T, out string) {
		fuzzShape(t, parseMacSample(out))
	})
}

func FuzzDemangleRust(f *testing.F) {
	for _, s := range []string{
		"_RNvMs_NtNtCsjrHSEGnQ3l9_3std6thread6threadNtB4_6Thread12park_timeout",
		"_RNCNvMs1_NtNtNtCsjrHSEGnQ3l9_3std4sync4mpmc4listINtB7_7ChannelNtNtCs3mSbOeLENLV_4test5event13CompletedTestE4recvs_0B12_",
		"_$LT$core..panic..unwind_safe..AssertUnwindSafe$LT$F$GT$$u20$as$u20$core..ops..function..FnOnce$LT$$LP$$RP$$GT$$GT$::call_once",
		"rustdeadlock::tests::deadlock::_$u7b$$u7b$closure$u7d$$u7d$",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sym string) {
		demangleRust(sym)
	})
}
