package jest

import (
	"context"
	"slices"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/report"
)

func refKeys(refs []adapters.TestRef) []string {
	var keys []string
	for _, r := range refs {
		keys = append(keys, r.Suite+" :: "+r.Name)
	}
	slices.Sort(keys)
	return keys
}

func recorded(tests []report.Test) []string {
	var refs []adapters.TestRef
	for _, tc := range tests {
		refs = append(refs, adapters.TestRef{Suite: tc.Suite, Name: tc.Name})
	}
	return refKeys(refs)
}

// List names every test a run records, skipped and todo ones included,
// without running any: a level's and the whole suite's.
func TestJestList(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		level   adapters.Level
	}{{"basic", adapters.LevelAll}, {"levels", adapters.LevelUnit}, {"levels", adapters.LevelAll}} {
		t.Run(tc.fixture+"/"+string(tc.level), func(t *testing.T) {
			req := adapters.Request{ProjectRoot: fixture(tc.fixture), Level: tc.level}
			rec, _, _ := run(t, req)
			refs, err := New().(adapters.Lister).List(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := refKeys(refs), recorded(rec.Tests()); !slices.Equal(got, want) || len(got) == 0 {
				t.Errorf("List = %q, want what the run recorded, %q", got, want)
			}
		})
	}
	t.Run("broken", func(t *testing.T) {
		requireJest(t)
		_, err := New().(adapters.Lister).List(context.Background(), adapters.Request{ProjectRoot: fixture("broken")})
		if err == nil || !strings.Contains(err.Error(), "failed to load") {
			t.Errorf("List of a suite with a file that does not load: %v, want an error naming it", err)
		}
	})
}

// Several tests of several files run in one process, exactly those.
func TestJestMultiSelect(t *testing.T) {
	requireJest(t)
	root := fixture("basic")
	all, err := New().(adapters.Lister).List(context.Background(), adapters.Request{ProjectRoot: root})
	if err != nil {
		t.Fatal(err)
	}
	var tests []adapters.TestRef
	suites := map[string]bool{}
	for i, r := range all {
		if i%2 == 0 {
			tests = append(tests, r)
			suites[r.Suite] = true
		}
	}
	if len(suites) < 2 {
		t.Fatalf("chose %q: want tests of two files", refKeys(tests))
	}
	rec, out, _ := run(t, adapters.Request{ProjectRoot: root, Tests: tests})
	if got, want := recorded(rec.Tests()), refKeys(tests); !slices.Equal(got, want) {
		t.Errorf("ran %q, want %q (hint %q)", got, want, out.Hint)
	}
}
