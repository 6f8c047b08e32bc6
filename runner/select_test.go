package runner

import (
	"strings"
	"testing"

	"strobe/adapters"
)

func TestSelectionRefused(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		req  Request
		want string
	}{
		{"part beyond total", Request{Framework: "go", Partition: "3/2"}, "part 3 of only 2"},
		{"part zero", Request{Framework: "go", Partition: "0/4"}, "counts parts from 1"},
		{"not numbers", Request{Framework: "go", Partition: "hash:a/b"}, "not two whole numbers"},
		{"cannot list", Request{Framework: "generic", Command: "true", Partition: "hash:1/2"}, "generic framework cannot list its tests"},
		{"with failed", Request{Framework: "go", Partition: "1/2", OnlyFailed: true}, "do not go together"},
		{"with a test", Request{Framework: "cargo", Partition: "slice:1/2", Test: "tests::a"}, "splits a suite, not one test"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.ProjectRoot = dir
			_, err := New(tc.req, Options{})
			if err == nil || !adapters.IsUsage(err) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("New(%+v) = %v; want a one-line usage error containing %q", tc.req, err, tc.want)
			}
		})
	}
}
