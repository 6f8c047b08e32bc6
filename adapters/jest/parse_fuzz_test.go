package jest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
)

// FuzzJest replays arbitrary bytes as jest's two streams and as the
// reporter's events file, interleaved and cut as the input chooses.
func FuzzJest(f *testing.F) {
	for _, path := range adapterstest.FuzzGlob(f, filepath.Join("testdata", "recorded", "*.jsonl")) {
		f.Add([]byte("No tests found\n"), []byte{}, adapterstest.FuzzSeed(f, path), []byte{2, 0, 1}, byte(1), byte(0))
	}
	f.Fuzz(func(t *testing.T, stdout, stderr, events, sched []byte, code, flags byte) {
		rec := adapters.NewRecorder()
		dir := t.TempDir()
		p := newParser(rec, "/project", "/project", dir)
		p.rerun = []string{"npx", "jest"}
		var out adapters.Outcome
		adapterstest.FuzzRun(t, func() {
			var pending bytes.Buffer
			adapterstest.FuzzReplay(p, stdout, stderr, events, sched, func(b []byte) { pending.Write(b) })
			// The decoder reads the events as the reporter would have
			// written them; the lines came meanwhile.
			p.decode(&pending)
			close(p.done)
			out = p.Finish(adapterstest.FuzzExit(code, flags))
			p.Close()
		})
		adapterstest.FuzzCheck(t, rec, out)
		if _, err := os.Stat(dir); err == nil {
			t.Error("Close left the reporter's directory")
		}
	})
}
