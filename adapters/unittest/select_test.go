package unittest

import (
	"context"
	"slices"
	"strings"
	"testing"

	"strobe/adapters"
)

// List names the tests the run of the same selection records, without
// running them.
func TestList(t *testing.T) {
	root := fixture(t, "pkg")
	for _, tc := range []struct {
		name string
		req  adapters.Request
	}{
		{"all", adapters.Request{}},
		{"level", adapters.Request{Level: adapters.LevelUnit}},
		{"a class", adapters.Request{Test: "tests.unit.test_unit.TestUnit"}},
		{"a directory", adapters.Request{Test: "tests/integration"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, _, _ := run(t, root, tc.req)
			var want []string
			for _, tt := range rec.Tests() {
				want = append(want, tt.Name)
			}
			tc.req.ProjectRoot = root
			refs, err := New().(adapters.Lister).List(context.Background(), tc.req)
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
	t.Run("import error", func(t *testing.T) {
		_, err := New().(adapters.Lister).List(context.Background(), adapters.Request{ProjectRoot: fixture(t, "broken")})
		if err == nil || !strings.Contains(err.Error(), "failed to import") {
			t.Errorf("List of a suite with a module that does not import: %v, want an error saying so", err)
		}
	})
}

// Several tests run in one process, exactly those; a failed class fixture
// is rerun through its class.
func TestMultiSelect(t *testing.T) {
	root := fixture(t, "basic")
	want := []string{"tests.test_calc.TestCalc.test_fails", "setUpClass (tests.test_calc.TestClassFixture)", "tests.test_ok.TestOK.test_one"}
	var tests []adapters.TestRef
	for _, n := range want {
		tests = append(tests, adapters.TestRef{Name: n})
	}
	rec, out, _ := run(t, root, adapters.Request{Tests: tests})
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
