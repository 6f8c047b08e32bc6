package runner

import (
	"strings"
	"testing"

	"strobe/adapters"
)

// A traced run refuses what would run its tests several times or choose
// them itself, before anything runs, in one line.
func TestTraceRefusesCombinations(t *testing.T) {
	withAdapter(t, shTracer{})
	root := t.TempDir()
	for _, tc := range []struct {
		name string
		edit func(*Request)
		want string
	}{
		{"retries", func(r *Request) { r.Retries = 2 }, "tracePatterns and retries do not go together"},
		{"repeat", func(r *Request) { r.Repeat = 3 }, "tracePatterns and repeat do not go together"},
		{"partition", func(r *Request) { r.Partition = "hash:1/2" }, "tracePatterns and a partition do not go together"},
		{"failed", func(r *Request) { r.OnlyFailed = true }, "tracePatterns and --failed do not go together"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := Request{ProjectRoot: root, Framework: "shtrace", Trace: &Trace{Patterns: []string{"calc::parse"}}}
			tc.edit(&req)
			_, err := New(req, Options{DetailsDir: t.TempDir()})
			if err == nil || !adapters.IsUsage(err) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "with test set") || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %v, want a one-line usage error with %q", err, tc.want)
			}
			// Untraced, the same request is fine.
			req.Trace = nil
			req.Framework = "generic"
			req.Command = "true"
			if tc.name == "partition" {
				return // the generic framework cannot list its tests
			}
			if _, err := New(req, Options{DetailsDir: t.TempDir()}); err != nil {
				t.Errorf("untraced: %v", err)
			}
		})
	}
}
