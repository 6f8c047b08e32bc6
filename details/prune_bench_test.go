package details

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"strobe/report"
)

// BenchmarkPrune: what every run pays once the directory holds keepRuns
// records and nothing is due to go (listing, sizes, traced sessions).
func BenchmarkPrune(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "s", "tests")
	if err := ensureDir(dir); err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	for i := range keepRuns {
		p := filepath.Join(dir, fmt.Sprintf("run-%03d.json", i))
		os.WriteFile(p, []byte("{}"), 0o600)
		os.WriteFile(JUnitPath(dir, fmt.Sprintf("run-%03d", i)), []byte("<x/>"), 0o600)
		os.Chtimes(p, now, now.Add(-time.Duration(i)*time.Second))
	}
	b.ResetTimer()
	for range b.N {
		prune(dir, now).Wait()
	}
}

// BenchmarkWriteFull: a small record written into a directory of keepRuns
// records, as every run does once it is full: "gated" as Write does,
// "every-run" with a prune on every write (the mark removed each time).
func BenchmarkWriteFull(b *testing.B) {
	for _, every := range []bool{false, true} {
		name := map[bool]string{false: "gated", true: "every-run"}[every]
		b.Run(name, func(b *testing.B) {
			dir := filepath.Join(b.TempDir(), "s", "tests")
			if err := ensureDir(dir); err != nil {
				b.Fatal(err)
			}
			now := time.Now()
			for i := range keepRuns {
				p := filepath.Join(dir, fmt.Sprintf("run-%03d.json", i))
				os.WriteFile(p, []byte("{}"), 0o600)
				os.WriteFile(JUnitPath(dir, fmt.Sprintf("run-%03d", i)), []byte("<x/>"), 0o600)
				os.Chtimes(p, now, now.Add(-time.Hour-time.Duration(i)*time.Second))
			}
			markPruned(dir, now)
			b.ResetTimer()
			for i := range b.N {
				if every {
					os.Remove(filepath.Join(dir, prunedMark))
				}
				if _, err := Write(dir, &Record{Response: report.Response{RunID: fmt.Sprintf("new-%06d", i), Status: report.Passed}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
