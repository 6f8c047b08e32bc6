package catch2

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
)

func names(refs []adapters.TestRef) []string {
	var n []string
	for _, r := range refs {
		n = append(n, r.Name)
	}
	return n
}

// List names the tests a run records, under the run's own spec, names
// full of test-spec characters included.
func TestCatch2List(t *testing.T) {
	bins := testutil.Catch2Fixtures(t)
	root := testutil.Fixture("catch2", "plain")
	bin := filepath.Join(bins, "basic")
	rec, _, _ := adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: root, Command: []string{bin}})
	var ran []string
	for _, tc := range rec.Tests() {
		ran = append(ran, tc.Name)
	}
	for _, tc := range []struct {
		name string
		req  adapters.Request
		want []string
	}{
		{"all", adapters.Request{}, ran},
		{"unit", adapters.Request{Level: adapters.LevelUnit}, []string{"adds small numbers", "adds wrongly"}},
		{"test", adapters.Request{Test: `a, b [c] "d" ~e \f *g`}, []string{`a, b [c] "d" ~e \f *g`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.ProjectRoot, tc.req.Command = root, []string{bin}
			refs, err := catch2{}.List(context.Background(), tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if got := names(refs); !slices.Equal(got, tc.want) {
				t.Errorf("List = %q, want %q", got, tc.want)
			}
		})
	}
}

// Several tests run in one process, exactly those, with one spec.
func TestCatch2MultiSelect(t *testing.T) {
	bins := testutil.Catch2Fixtures(t)
	root := testutil.Fixture("catch2", "plain")
	want := []string{"adds wrongly", `a, b [c] "d" ~e \f *g`, "vector sections"}
	var tests []adapters.TestRef
	for _, n := range want {
		tests = append(tests, adapters.TestRef{Name: n})
	}
	rec, out, _ := adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: root, Command: []string{filepath.Join(bins, "basic")}, Tests: tests})
	got := names(nil)
	for _, tc := range rec.Tests() {
		got = append(got, tc.Name)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("ran %q, want %q (hint %q)", got, want, out.Hint)
	}
}
