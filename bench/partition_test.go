package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"strobe/internal/testutil"
	"strobe/runner"
)

// BenchmarkPartition measures what partitioning costs a CI shard: the
// listing (go test -list; cargo test --no-run and each binary's --list;
// pytest --collect-only) beside the shard's own test time, for each part of
// hash:M/3 of the 300-test fixtures of package shard, on warm builds. The
// listing is the whole overhead: the shard's run is the same command with a
// narrower filter.
func BenchmarkPartition(b *testing.B) {
	for _, c := range []struct{ framework, tool, dir string }{
		{"go", "go", "go300"}, {"cargo", "cargo", "cargo300"}, {"pytest", "python3", "py300"},
	} {
		b.Run(c.framework, func(b *testing.B) {
			testutil.RequireTool(b, c.tool)
			root := filepath.Join(testutil.Root(), "shard", "testdata", c.dir)
			env := map[string]string{"CARGO_TARGET_DIR": filepath.Join(os.TempDir(), "strobe-shard-cargo300-target"), "PYTHONDONTWRITEBYTECODE": "1"}
			opts := runner.Options{DetailsDir: b.TempDir()}
			run := func(part string) (list, total time.Duration) {
				resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: root, Framework: c.framework, Env: env, Partition: part}, opts)
				if err != nil || resp.Summary == nil {
					b.Fatalf("%s %s: %v %+v", c.framework, part, err, resp)
				}
				if resp.Partition != nil {
					list = time.Duration(resp.Partition.ListMS) * time.Millisecond
				}
				return list, time.Duration(resp.Summary.DurationMS) * time.Millisecond
			}
			run("") // warm the build
			var lists, totals []time.Duration
			b.ResetTimer()
			for i := range b.N {
				l, t := run(fmt.Sprintf("hash:%d/3", i%3+1))
				lists, totals = append(lists, l), append(totals, t)
			}
			l, t := median(lists), median(totals)
			record(b, "partition %s (300 tests, hash:M/3, warm): listing %.0f ms of a shard's %.0f ms (%.0f%%), load %s",
				c.framework, ms(l), ms(t), 100*ms(l)/ms(t), loadavg())
		})
	}
}
