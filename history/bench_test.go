package history

import (
	"fmt"
	"testing"

	"strobe/report"
)

func BenchmarkNormalise(b *testing.B) {
	msg := "case_test.go:123: got 5, want 6 (at 0xc000010000, took 1.2s in /tmp/TestX123/001)"
	for range b.N {
		Normalise(msg)
	}
}

func BenchmarkRecord(b *testing.B) {
	mk := func(id string, k int) Run {
		tests := make([]report.Test, 2000)
		for i := range tests {
			tests[i] = report.Test{Name: fmt.Sprintf("TestCase%04d", i), Suite: fmt.Sprintf("example.com/mod/pkg%02d", i%20), Status: report.TestPassed}
			if (i+k)%50 == 0 {
				tests[i].Status = report.TestFailed
				tests[i].Failure = &report.Failure{Name: tests[i].Name, File: "x_test.go", Line: i, Message: fmt.Sprintf("got %d want %d at 0x%x", i, i+1, i)}
			}
		}
		return Run{ID: id, Root: "/p", Key: Key{Framework: "go"}, Status: report.Failed, Tests: tests}
	}
	s := Open(b.TempDir())
	for i := range KeepRuns {
		s.Record(mk(fmt.Sprint("w", i), i))
	}
	runs := make([]Run, b.N)
	for i := range runs {
		runs[i] = mk(fmt.Sprint("r", i), i)
	}
	b.ResetTimer()
	for i := range b.N {
		if _, err := s.Record(runs[i]); err != nil {
			b.Fatal(err)
		}
	}
}
