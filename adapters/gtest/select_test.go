package gtest

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"strobe/adapters"
)

func refNames(refs []adapters.TestRef) []string {
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = r.Name
	}
	return names
}

func TestParseList(t *testing.T) {
	out := "Running main() from ./googletest/src/gtest_main.cc\n" +
		"Math.\n  Adds\n  DISABLED_NotYet\n" +
		"Typed/0.  # TypeParam = int\n  DefaultIsZero\n" +
		"Inst/Param.\n  IsEven/0  # GetParam() = 2\n  IsEven/1  # GetParam() = \"a # b\"\n" +
		"a line the binary printed\n  Indented\n"
	want := []string{"Math.Adds", "Math.DISABLED_NotYet", "Typed/0.DefaultIsZero", "Inst/Param.IsEven/0", "Inst/Param.IsEven/1"}
	if got := refNames(parseList([]byte(out))); !slices.Equal(got, want) {
		t.Errorf("parseList = %q, want %q", got, want)
	}
}

// List names the tests a run records, under the filter the run would use.
func TestList(t *testing.T) {
	dir := bins(t)
	root := fixtureRoot(t)
	all, _, _ := run(t, "basic_test", adapters.Request{})
	var ran []string
	for _, tc := range all.Tests() {
		ran = append(ran, tc.Name)
	}
	for _, tc := range []struct {
		name string
		req  adapters.Request
		want []string
	}{
		{"all", adapters.Request{}, ran},
		{"unit", adapters.Request{Level: adapters.LevelUnit}, []string{"UnitMath.Adds", "UnitMath.AddsWrongly", "UnitMath.Throws",
			"UnitMath.SkipsOnPurpose", "UnitMath.DISABLED_NotYet", "UnitTyped/0.DefaultIsZero", "UnitTyped/1.DefaultIsZero"}},
		{"suite", adapters.Request{Test: "Small/IntegrationParam"}, []string{"Small/IntegrationParam.IsEven/0", "Small/IntegrationParam.IsEven/1", "Small/IntegrationParam.IsEven/2"}},
		{"command filter", adapters.Request{Command: []string{"--gtest_filter=E2E*"}}, []string{"E2EDeath.ExitsWithOne", "E2EDeath.DoesNotDie"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.ProjectRoot, tc.req.Command = root, append([]string{filepath.Join(dir, "basic_test")}, tc.req.Command...)
			refs, err := gtest{}.List(context.Background(), tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if got := refNames(refs); !slices.Equal(got, tc.want) {
				t.Errorf("List = %q, want %q", got, tc.want)
			}
		})
	}
}

// Several tests run in one process, exactly those: plain, typed and
// parameterized names.
func TestMultiSelect(t *testing.T) {
	want := []string{"UnitMath.AddsWrongly", "UnitTyped/1.DefaultIsZero", "Small/IntegrationParam.IsEven/1", "Other.PrintsOutput"}
	var tests []adapters.TestRef
	for _, n := range want {
		tests = append(tests, adapters.TestRef{Name: n})
	}
	rec, out, _ := run(t, "basic_test", adapters.Request{Tests: tests})
	var got []string
	for _, tc := range rec.Tests() {
		got = append(got, tc.Name)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("ran %q, want %q", got, want)
	}
	if p := rec.Progress(); p.Failed != 2 || p.Passed != 2 {
		t.Errorf("progress %+v (hint %q), want 2 failed and 2 passed", p, out.Hint)
	}
	if _, err := (gtest{}).Plan(context.Background(), adapters.Request{ProjectRoot: fixtureRoot(t), Tests: tests,
		Command: []string{filepath.Join(bins(t), "basic_test"), "--gtest_filter=Other.*"}}, adapters.NewRecorder()); !adapters.IsUsage(err) {
		t.Errorf("a command with its own filter and several tests: %v, want a usage error", err)
	}
}

// A suite that failed outside its tests (SetUpTestSuite) is recorded
// under the suite's name: run again among several tests, the name runs
// the whole suite.
func TestMultiSelectSuite(t *testing.T) {
	rec, _, _ := run(t, "suite_test", adapters.Request{Tests: []adapters.TestRef{{Name: "SuiteSetUp"}, {Name: "SuiteTearDown.Only"}}})
	var got []string
	for _, tc := range rec.Tests() {
		got = append(got, tc.Name)
	}
	slices.Sort(got)
	if want := []string{"SuiteSetUp", "SuiteSetUp.First", "SuiteSetUp.Second", "SuiteTearDown", "SuiteTearDown.Only"}; !slices.Equal(got, want) {
		t.Errorf("ran %q, want %q", got, want)
	}
}
