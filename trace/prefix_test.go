package trace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSessionPrefix(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"abcd-1111", "abcd-2222", "f00d-0000"} {
		out := OutDir(dir, id)
		os.MkdirAll(out, 0o700)
		ev := `{"id":1,"type":"enter","t":1000,"thread":"1","function":"calc::parse"}` + "\n" + `{"type":"meta","tracer":"test"}` + "\n"
		os.WriteFile(filepath.Join(out, "events-1.jsonl"), []byte(ev), 0o600)
		if _, err := Ingest(Dir(dir, id), id, "", 0, out, nil, MaxEvents, MaxSessionBytes); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ id, want, err string }{
		{"f00d-0000", "f00d-0000", ""},
		{"f00d", "f00d-0000", ""},
		{"abcd-2", "abcd-2222", ""},
		{"abcd", "", "2 sessions start with it; give more of the id"},
		{"f00", "", "never traced, or pruned"}, // too short to be a prefix
		{"beef", "", "never traced, or pruned"},
		{"f*", "", "never traced, or pruned"},
	} {
		p, err := Query(dir, tc.id, Filter{})
		switch {
		case tc.err != "":
			if err == nil || !errors.Is(err, ErrNoSession) || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: %v, want an error with %q", tc.id, err, tc.err)
			}
		case err != nil:
			t.Errorf("%q: %v", tc.id, err)
		case p.SessionID != tc.want || len(p.Lines) != 1:
			t.Errorf("%q: session %q with %d events, want %q", tc.id, p.SessionID, len(p.Lines), tc.want)
		}
	}
}
