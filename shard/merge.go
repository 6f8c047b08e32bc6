package shard

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"strobe/details"
	"strobe/report"
)

// Merged is the shards of one suite put back together.
type Merged struct {
	Response report.Response
	Tests    []report.Test
	Started  time.Time
	// Warnings say what the merge lacks (a shard that is missing).
	Warnings []string
}

// severity orders the statuses for the merged answer: the worst shard's
// status is the merge's, and a shard with no test does not hide the
// others' passing.
var severity = map[report.Status]int{
	report.NoTests: 0, report.Passed: 1, report.Failed: 2, report.BuildFailed: 3, report.Cancelled: 4,
	report.Timeout: 5, report.Stuck: 6, report.Crashed: 7, report.Error: 8,
}

// Merge combines the details files of a partitioned run's shards (or of
// several runs of one selection) into one answer. It refuses shards of
// different projects, commits, frameworks, selections or partition
// totals, naming the mismatch, and a part given twice; a part missing is a
// warning.
func Merge(recs []*details.Record, names []string) (*Merged, error) {
	if len(recs) == 0 {
		return nil, fmt.Errorf("nothing to merge: give the details files of the shards")
	}
	if err := compatible(recs, names); err != nil {
		return nil, err
	}
	m := &Merged{Started: recs[0].Started}
	resp := &m.Response
	resp.RunID = "merged-" + uuid.NewString()
	resp.Framework = recs[0].Response.Framework
	resp.Status = report.NoTests
	resp.Summary = &report.Summary{}
	var seen []int
	for _, r := range recs {
		rr := &r.Response
		if severity[rr.Status] > severity[resp.Status] {
			resp.Status = rr.Status
		}
		if s := rr.Summary; s != nil {
			resp.Summary.Passed += s.Passed
			resp.Summary.Failed += s.Failed
			resp.Summary.Skipped += s.Skipped
			resp.Summary.Stuck += s.Stuck
			// The shards ran side by side: the merge took the longest.
			resp.Summary.DurationMS = max(resp.Summary.DurationMS, s.DurationMS)
		}
		resp.Failures = append(resp.Failures, rr.Failures...)
		resp.BuildErrors = append(resp.BuildErrors, rr.BuildErrors...)
		resp.Stuck = append(resp.Stuck, rr.Stuck...)
		if resp.Crash == nil && rr.Crash != nil {
			resp.Crash = rr.Crash
		}
		resp.Truncated = resp.Truncated || rr.Truncated
		m.Tests = append(m.Tests, r.Tests...)
		if r.Started.Before(m.Started) {
			m.Started = r.Started
		}
		if p := rr.Partition; p != nil {
			seen = append(seen, p.Index)
			if resp.Partition == nil {
				resp.Partition = &report.Partition{Kind: p.Kind, Total: p.Total, Listed: p.Listed}
			}
			resp.Partition.Selected += p.Selected
			resp.Partition.ListMS = max(resp.Partition.ListMS, p.ListMS)
		}
	}
	if p := resp.Partition; p != nil {
		p.Spec = fmt.Sprintf("%s:*/%d", p.Kind, p.Total)
		var missing []string
		for i := 1; i <= p.Total; i++ {
			if !slices.Contains(seen, i) {
				missing = append(missing, fmt.Sprintf("%d/%d", i, p.Total))
			}
		}
		if len(missing) > 0 {
			m.Warnings = append(m.Warnings, fmt.Sprintf("missing shards of partition %s: %s; their tests are not in this merge, so pass their details files too",
				p.Kind, strings.Join(missing, ", ")))
		}
	}
	resp.Hint = strings.Join(m.Warnings, ". ")
	return m, nil
}

// compatible checks that the shards are parts of one run.
func compatible(recs []*details.Record, names []string) error {
	name := func(i int) string {
		if i < len(names) {
			return names[i]
		}
		return recs[i].Response.RunID
	}
	first := recs[0]
	parts := map[int]int{}
	for i, r := range recs {
		for _, c := range []struct{ what, a, b string }{
			{"project", filepath.Base(first.ProjectRoot), filepath.Base(r.ProjectRoot)},
			{"commit", first.Commit, r.Commit},
			{"framework", first.Adapter, r.Adapter},
			{"level", first.Level, r.Level},
			{"test", first.Test, r.Test},
			{"command", first.Command, r.Command},
			{"partition kind", partKind(first), partKind(r)},
		} {
			if c.a != c.b {
				return fmt.Errorf("%s and %s are not shards of one run: %s %s, not %s; merge only the shards of one commit and selection",
					name(0), name(i), c.what, orNone(c.a), orNone(c.b))
			}
		}
		if r.Response.Rerun != nil {
			return fmt.Errorf("%s reran the failures of an earlier run, not a part of the suite: merge only partitioned runs", name(i))
		}
		p, fp := r.Response.Partition, first.Response.Partition
		if p == nil {
			continue
		}
		if p.Total != fp.Total {
			return fmt.Errorf("%s and %s are not shards of one run: partition into %d parts, not %d", name(0), name(i), fp.Total, p.Total)
		}
		if j, ok := parts[p.Index]; ok {
			return fmt.Errorf("%s and %s are both part %d/%d: pass each shard's details file once", name(j), name(i), p.Index, p.Total)
		}
		parts[p.Index] = i
	}
	return nil
}

func partKind(r *details.Record) string {
	if p := r.Response.Partition; p != nil {
		return p.Kind
	}
	return ""
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return strings.TrimSpace(s)
}
