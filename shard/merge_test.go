package shard

import (
	"strings"
	"testing"

	"strobe/details"
	"strobe/report"
)

func shardRec(m, n int, mod func(*details.Record)) *details.Record {
	r := &details.Record{ProjectRoot: "/ci/work/app", Adapter: "go", Commit: "abc123",
		Response: report.Response{Status: report.Passed, Framework: "go", Summary: &report.Summary{Passed: 10, DurationMS: int64(100 * m)},
			Partition: &report.Partition{Spec: "hash:1/3", Kind: Hash, Index: m, Total: n, Listed: 30, Selected: 10}},
		Tests: []report.Test{{Suite: "app", Name: "T" + string(rune('0'+m)), Status: report.TestPassed}}}
	if mod != nil {
		mod(r)
	}
	return r
}

func TestMergeRefusesMismatchedShards(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(*details.Record)
		n    int
		want string
	}{
		{"commit", func(r *details.Record) { r.Commit = "def456" }, 3, "commit abc123, not def456"},
		{"no commit", func(r *details.Record) { r.Commit = "" }, 3, "commit abc123, not (none)"},
		{"project", func(r *details.Record) { r.ProjectRoot = "/ci/work/other" }, 3, "project app, not other"},
		{"framework", func(r *details.Record) { r.Adapter = "cargo" }, 3, "framework go, not cargo"},
		{"level", func(r *details.Record) { r.Level = "unit" }, 3, "level (none), not unit"},
		{"command", func(r *details.Record) { r.Command = "go test -race ./..." }, 3, "command (none), not go test -race ./..."},
		{"kind", func(r *details.Record) { r.Response.Partition.Kind = Slice }, 3, "partition kind hash, not slice"},
		{"total", nil, 4, "partition into 3 parts, not 4"},
		{"twice", func(r *details.Record) { r.Response.Partition.Index = 1 }, 3, "are both part 1/3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs := []*details.Record{shardRec(1, 3, nil), shardRec(2, tc.n, tc.mod)}
			_, err := Merge(recs, []string{"shard1.json", "shard2.json"})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "shard1.json") {
				t.Errorf("Merge: %v; want an error naming the files and %q", err, tc.want)
			}
		})
	}
}

func TestMergeCombines(t *testing.T) {
	failed := shardRec(2, 3, func(r *details.Record) {
		r.Response.Status = report.Failed
		r.Response.Summary.Failed = 2
		r.Response.Failures = []report.Failure{{Name: "T2"}, {Name: "U2"}}
	})
	empty := shardRec(3, 3, func(r *details.Record) {
		r.Response.Status, r.Response.Summary, r.Tests = report.NoTests, &report.Summary{}, nil
		r.Response.Partition.Selected = 0
	})
	m, err := Merge([]*details.Record{shardRec(1, 3, nil), failed, empty}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := m.Response.Summary
	if m.Response.Status != report.Failed || s.Passed != 20 || s.Failed != 2 || s.DurationMS != 200 || len(m.Response.Failures) != 2 ||
		len(m.Tests) != 2 || len(m.Warnings) != 0 || m.Response.Partition.Spec != "hash:*/3" || m.Response.Partition.Selected != 20 {
		t.Errorf("merged %s %+v, partition %+v, %d failures, %d tests, warnings %q", m.Response.Status, s, m.Response.Partition, len(m.Response.Failures), len(m.Tests), m.Warnings)
	}
	m, err = Merge([]*details.Record{shardRec(1, 3, nil), shardRec(3, 3, nil)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0], "2/3") || !strings.Contains(m.Response.Hint, "2/3") {
		t.Errorf("missing shard 2/3: warnings %q, hint %q", m.Warnings, m.Response.Hint)
	}
	if _, err := Merge(nil, nil); err == nil {
		t.Error("Merge of nothing: no error")
	}
}
