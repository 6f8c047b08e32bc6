package ctest

import (
	"context"
	"slices"
	"testing"

	"strobe/adapters"
)

// List names the tests a run records, in its order, under the run's own
// selection.
func TestList(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  adapters.Request
	}{
		{"all", adapters.Request{}},
		{"unit", adapters.Request{Level: adapters.LevelUnit}},
		{"test", adapters.Request{Test: "Math.Adds"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, _, _ := run(t, tc.req)
			var want []string
			for _, tt := range rec.Tests() {
				want = append(want, tt.Name)
			}
			req := tc.req
			req.ProjectRoot, req.Command = projectSrc, []string{"ctest", "--test-dir", tree(t)}
			refs, err := ctest{}.List(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range refs {
				got = append(got, r.Name)
			}
			if !slices.Equal(got, want) || len(got) == 0 {
				t.Errorf("List = %q, want what the run recorded, %q", got, want)
			}
		})
	}
}

// Several tests run in one ctest, exactly those: names with dots and
// spaces are quoted.
func TestMultiSelect(t *testing.T) {
	want := []string{"Math.AddsWrongly", "strings join", "script_passes"}
	var tests []adapters.TestRef
	for _, n := range want {
		tests = append(tests, adapters.TestRef{Name: n})
	}
	rec, out, _ := run(t, adapters.Request{Tests: tests})
	var got []string
	for _, tt := range rec.Tests() {
		got = append(got, tt.Name)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("ran %q, want %q (hint %q)", got, want, out.Hint)
	}
}
