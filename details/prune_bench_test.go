package details

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
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
