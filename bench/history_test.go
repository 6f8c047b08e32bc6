package bench

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"strobe/details"
	"strobe/history"
	"strobe/junit"
	"strobe/report"
)

// historyTests is the size of the run BenchmarkHistory records.
const historyTests = 2000

// historyRun is a run of historyTests tests in 20 packages, failing of
// them the ones failing picks, as the runner hands it to the history.
func historyRun(id string, failing func(i int) bool) (history.Run, []report.Test) {
	tests := make([]report.Test, historyTests)
	for i := range tests {
		t := report.Test{Name: fmt.Sprintf("TestCase%04d", i), Suite: fmt.Sprintf("example.com/mod/pkg%02d", i%20),
			Status: report.TestPassed, DurationMS: 3, Output: "=== RUN\n--- PASS\n"}
		if failing(i) {
			t.Status = report.TestFailed
			t.Failure = &report.Failure{Name: t.Name, File: "pkg/case_test.go", Line: 10 + i,
				Message: fmt.Sprintf("case_test.go:%d: got %d, want %d (at 0x%x, took 1.2s)", 10+i, i, i+1, 0xc000010000+i)}
		}
		tests[i] = t
	}
	return history.Run{ID: id, Root: "/bench/project", Key: history.Key{Framework: "go", Level: "all"},
		Status: report.Failed, Tests: tests}, tests
}

// BenchmarkHistory measures what the history adds to a run of 2,000 tests
// (lock, read the project's file holding 49 earlier runs, compare, advance
// the failure streaks, write it back), beside the two writes every run
// already made or now makes of the same run: its details file and its
// JUnit report. Target: the history at most 5 ms.
func BenchmarkHistory(b *testing.B) {
	dir := b.TempDir()
	store := history.Open(filepath.Join(dir, "history"))
	for i := range history.KeepRuns - 1 {
		r, _ := historyRun(fmt.Sprint("warm-", i), func(j int) bool { return (j+i)%50 == 0 })
		if _, err := store.Record(r); err != nil {
			b.Fatal(err)
		}
	}
	detailsDir := filepath.Join(dir, "details")
	var hist, det, ju []time.Duration
	var histCPU, detCPU, juCPU time.Duration // on a shared machine wall time waits for a core; CPU time does not
	b.ResetTimer()
	for i := range b.N {
		// Some failures stay, some are fixed, some are new.
		r, tests := historyRun(fmt.Sprint("run-", i), func(j int) bool { return (j+i)%50 == 0 || j%97 == 0 })
		start, cpu := time.Now(), cpuTime()
		res, err := store.Record(r)
		if err != nil {
			b.Fatal(err)
		}
		hist, histCPU = append(hist, time.Since(start)), histCPU+cpuTime()-cpu
		if res.Changes == nil {
			b.Fatal("no changes compared")
		}

		resp := report.Response{Status: report.Failed, RunID: r.ID, Framework: "go", Summary: &report.Summary{}}
		start, cpu = time.Now(), cpuTime()
		if _, err := details.Write(detailsDir, &details.Record{Response: resp, ProjectRoot: r.Root, Adapter: "go", Tests: tests}); err != nil {
			b.Fatal(err)
		}
		det, detCPU = append(det, time.Since(start)), detCPU+cpuTime()-cpu

		start, cpu = time.Now(), cpuTime()
		if err := junit.WriteFile(details.JUnitPath(detailsDir, r.ID), junit.Build(junit.Run{Response: &resp, Tests: tests})); err != nil {
			b.Fatal(err)
		}
		ju, juCPU = append(ju, time.Since(start)), juCPU+cpuTime()-cpu
	}
	b.StopTimer()
	h, d, j := median(hist), median(det), median(ju)
	b.ReportMetric(ms(h), "history-ms")
	b.ReportMetric(ms(d), "details-ms")
	b.ReportMetric(ms(j), "junit-ms")
	n := time.Duration(len(hist))
	b.ReportMetric(ms(histCPU/n), "history-cpu-ms")
	record(b, "history of a %d-test run: %.2f ms added (target ≤ 5 ms; %.2f ms CPU), beside its details file %.2f ms (%.2f CPU) and JUnit report %.2f ms (%.2f CPU); wall medians and CPU means of %d",
		historyTests, ms(h), ms(histCPU/n), ms(d), ms(detCPU/n), ms(j), ms(juCPU/n), len(hist))
}
