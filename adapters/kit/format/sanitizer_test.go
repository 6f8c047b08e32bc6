package format

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/report"
)

// readSanitizer feeds a recorded stderr to a SanitizerReader and returns
// its reports and the lines that belonged to none.
func readSanitizer(t *testing.T, text string) ([]*SanitizerReport, []string) {
	t.Helper()
	var r SanitizerReader
	var reps []*SanitizerReport
	var other []string
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		rep, began := r.Line(line)
		switch {
		case rep == nil:
			other = append(other, line)
		case began:
			reps = append(reps, rep)
		}
	}
	return reps, other
}

func TestSanitizerReports(t *testing.T) {
	recorded := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "sanitizer", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, tc := range []struct {
		name, text    string
		kind, summary string
		file          string
		line          int
		indicator     string
		crash         report.CrashType
		gist          []string // lines the gist must hold, in order
		others        int      // lines outside any report
	}{
		{
			name: "asan use after free", text: recorded("gtest-asan_test.stderr.txt"),
			kind: "AddressSanitizer", summary: "AddressSanitizer: heap-use-after-free /src/project/asan_test.cpp:8 in read_freed()",
			file: "/src/project/asan_test.cpp", line: 8, indicator: "address_sanitizer", crash: report.CrashSanitizer,
			gist:   []string{"ERROR: AddressSanitizer: heap-use-after-free", "READ of size 4", "at read_freed() asan_test.cpp:8", "at Asan_UsesAfterFree_Test::TestBody() asan_test.cpp:13", "freed by thread T0 here:", "at read_freed() asan_test.cpp:7", "previously allocated by thread T0 here:", "at read_freed() asan_test.cpp:6", "SUMMARY: AddressSanitizer"},
			others: 33, // the ===== rule before it; the shadow map and ==pid==ABORTING after its SUMMARY
		},
		{
			name: "ubsan fatal runtime error", text: recorded("gtest-ubsan_test.stderr.txt"),
			kind: "UndefinedBehaviorSanitizer", summary: "UndefinedBehaviorSanitizer: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int' at /src/project/ubsan_test.cpp:9",
			file: "/src/project/ubsan_test.cpp", line: 9, indicator: "undefined_behavior_sanitizer", crash: report.CrashSanitizer,
			gist: []string{"runtime error: signed integer overflow", "SUMMARY: UndefinedBehaviorSanitizer"},
		},
		{
			name: "asan segv with summary, then output",
			text: "==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x1 bp 0x2 sp 0x3 T0)\n" +
				"    #0 0x55 in catch_run() /src/build/_deps/catch2/catch.hpp:100\n" +
				"    #1 0x56 in deref(int*) /src/project/crash.cpp:7:3\n" +
				"SUMMARY: AddressSanitizer: SEGV /src/project/crash.cpp:7 in deref(int*)\n" +
				"after",
			kind: "AddressSanitizer", summary: "AddressSanitizer: SEGV /src/project/crash.cpp:7 in deref(int*)",
			file: "/src/project/crash.cpp", line: 7, indicator: "address_sanitizer", crash: report.CrashSegmentationFault,
			gist: []string{"SEGV on unknown address", "deref(int*)"}, others: 1,
		},
		{
			name: "tsan",
			text: "WARNING: ThreadSanitizer: data race (pid=9)\n  Write of size 4 at 0x1 by thread T1:\n    #0 bump() src/race.cpp:5 (race+0x1)\nSUMMARY: ThreadSanitizer: data race src/race.cpp:5 in bump()",
			kind: "ThreadSanitizer", summary: "ThreadSanitizer: data race src/race.cpp:5 in bump()",
			indicator: "thread_sanitizer", crash: report.CrashSanitizer, gist: []string{"data race"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reps, other := readSanitizer(t, tc.text)
			if len(reps) != 1 {
				t.Fatalf("%d reports, want 1 (outside: %q)", len(reps), other)
			}
			r := reps[0]
			if r.Kind != tc.kind || r.Summary != tc.summary {
				t.Errorf("kind %q summary %q, want %q %q", r.Kind, r.Summary, tc.kind, tc.summary)
			}
			if len(other) != tc.others {
				t.Errorf("%d lines outside the report, want %d: %q", len(other), tc.others, other)
			}
			file, line := r.Location("/src/project", func(f string) bool { return strings.HasPrefix(filepath.Base(f), "catch") })
			if file != tc.file || line != tc.line {
				t.Errorf("location %s:%d, want %s:%d", file, line, tc.file, tc.line)
			}
			if r.Indicator() != tc.indicator || r.CrashType() != tc.crash {
				t.Errorf("indicator %q crash %q, want %q %q", r.Indicator(), r.CrashType(), tc.indicator, tc.crash)
			}
			gist := strings.Join(r.Gist("/src/project"), "\n")
			at := 0
			for _, want := range tc.gist {
				i := strings.Index(gist[at:], want)
				if i < 0 {
					t.Fatalf("gist lacks %q after offset %d:\n%s", want, at, gist)
				}
				at += i
			}
			if strings.Contains(gist, "Shadow bytes") || len(r.Gist("/src/project")) > 16 {
				t.Errorf("gist not bounded:\n%s", gist)
			}
		})
	}
}

// TestSanitizerBounded: a report without a summary keeps at most
// sanitizerMaxLines lines, and stays open.
func TestSanitizerBounded(t *testing.T) {
	var r SanitizerReader
	rep, began := r.Line("==1==ERROR: LeakSanitizer: detected memory leaks")
	if rep == nil || !began {
		t.Fatal("no report begun")
	}
	for range 1000 {
		r.Line("    #0 0x1 in leak() /src/project/leak.cpp:3")
	}
	if len(rep.Lines) != sanitizerMaxLines || !r.Open() {
		t.Errorf("%d lines kept, open %v; want %d, open", len(rep.Lines), r.Open(), sanitizerMaxLines)
	}
	r.Line("SUMMARY: LeakSanitizer: 4 byte(s) leaked in 1 allocation(s).")
	if r.Open() || rep.Summary != "LeakSanitizer: 4 byte(s) leaked in 1 allocation(s)." {
		t.Errorf("after the summary: open %v, summary %q", r.Open(), rep.Summary)
	}
	if got, _ := r.Line("plain output"); got != nil {
		t.Errorf("a plain line joined a report")
	}
}

// TestSanitizerUBSanStack: with print_stacktrace=1 a UBSan runtime error
// goes on with its frames, which name the GoogleTest test's body.
func TestSanitizerUBSanStack(t *testing.T) {
	text := "/src/project/ubsan_test.cpp:9:14: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'\n" +
		"    #0 0x55620a46e941 in add(int, int) /src/project/ubsan_test.cpp:9\n" +
		"    #1 0x55620a46eb50 in Ubsan_Overflows_Test::TestBody() /src/project/ubsan_test.cpp:16\n" +
		"    #2 0x55620a4a6286 in testing::Test::Run() (/src/build/ubsan_recover_test+0x39d8d)\n" +
		"next line"
	reps, other := readSanitizer(t, text)
	if len(reps) != 1 || len(reps[0].Lines) != 4 || len(other) != 1 {
		t.Fatalf("reports %d, lines %v, outside %q", len(reps), reps[0].Lines, other)
	}
	if c := reps[0].GTestClass(); c != "Ubsan_Overflows_Test" {
		t.Errorf("GTestClass = %q", c)
	}
	typed := &SanitizerReport{Lines: []string{"    #1 0x1 in ns::UnitTyped_DefaultIsZero_Test<int>::TestBody() /src/a.cpp:3"}}
	if c := typed.GTestClass(); c != "UnitTyped_DefaultIsZero_Test" {
		t.Errorf("typed GTestClass = %q", c)
	}
}
