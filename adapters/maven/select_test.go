package maven

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
)

func TestMultiSelection(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tests []adapters.TestRef
		want  string
	}{
		{"methods of a class", []adapters.TestRef{{Suite: "com.x.ATest", Name: "ATest#one"}, {Suite: "com.x.ATest", Name: "ATest#two"}}, "com.x.ATest#one+two"},
		{"classes", []adapters.TestRef{{Suite: "com.x.ATest", Name: "com.x.ATest"}, {Suite: "com.y.BTest", Name: "BTest#m"}}, "com.x.ATest,com.y.BTest#m"},
		{"a whole class wins", []adapters.TestRef{{Suite: "com.x.ATest", Name: "ATest#one"}, {Suite: "com.x.ATest", Name: "com.x.ATest"}}, "com.x.ATest"},
		{"invocations", []adapters.TestRef{{Suite: "com.x.ATest", Name: "ATest#adds(int)[1]"}, {Suite: "com.x.ATest", Name: "ATest#adds(int)[2]"}}, "com.x.ATest#adds"},
		{"no suite", []adapters.TestRef{{Name: "ATest#one"}}, "ATest#one"},
		{"a JUnit 4 Parameterized row", []adapters.TestRef{{Suite: "com.x.ATest", Name: "ATest#adds[1: n=2]"}, {Suite: "com.y.BTest", Name: "BTest#m"}}, "com.x.ATest,com.y.BTest#m"},
		{"Surefire 2.22's invocations", []adapters.TestRef{{Suite: "com.x.ATest", Name: "ATest#adds{int}[1]"}}, "com.x.ATest#adds"},
		{"a row without parameters, not JUnit 5's", []adapters.TestRef{{Suite: "com.x.ATest", Name: "ATest#adds[1]"}}, "com.x.ATest"},
	} {
		if got := multiSelection(t.TempDir(), tc.tests); got != tc.want {
			t.Errorf("%s: multiSelection = %q, want %q", tc.name, got, tc.want)
		}
	}
	// A JUnit 5 class's dynamic test under Surefire 2.22 selects its method.
	jupiter := []adapters.TestRef{{Suite: "com.example.InvocationTest", Name: "InvocationTest#dynamic[2]"}}
	if got := multiSelection(filepath.Join("testdata", "fixtures", "surefire2"), jupiter); got != "com.example.InvocationTest#dynamic" {
		t.Errorf("a JUnit 5 dynamic test: multiSelection = %q, want its method", got)
	}
}

func TestList(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		level   adapters.Level
		test    string
		want    []string
	}{
		{"basic", adapters.LevelAll, "", []string{"com.example.CalcTest", "com.example.OtherTest"}},
		{"basic", adapters.LevelUnit, "", []string{"com.example.CalcTest", "com.example.OtherTest"}},
		{"basic", adapters.LevelIntegration, "", []string{"com.example.SlowIT"}},
		{"basic", adapters.LevelAll, "OtherTest#passes", []string{"com.example.OtherTest"}},
		{"multi", adapters.LevelAll, "", []string{"com.example.app.AppTest", "com.example.core.GreeterTest", "com.example.shared.SharedTest"}},
	} {
		root, _ := filepath.Abs(filepath.Join("testdata", "fixtures", tc.fixture))
		refs, err := New().(adapters.Lister).List(context.Background(), adapters.Request{ProjectRoot: root, Level: tc.level, Test: tc.test})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range refs {
			if r.Suite != r.Name {
				t.Errorf("%+v: a class is listed as suite and name", r)
			}
			got = append(got, r.Name)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s %q %q: List = %q, want %q", tc.fixture, tc.level, tc.test, got, tc.want)
		}
	}
}

// Methods of one class and a whole other class run in one mvn.
func TestRealMultiSelect(t *testing.T) {
	requireMaven(t)
	root := adapterstest.CopyFixture(t, "basic")
	tests := []adapters.TestRef{
		{Suite: "com.example.CalcTest", Name: "CalcTest#addsWrongly"},
		{Suite: "com.example.CalcTest", Name: "CalcTest#addsSmallNumbers"},
		{Suite: "com.example.OtherTest", Name: "com.example.OtherTest"},
	}
	rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Tests: tests})
	var got []string
	for _, tt := range rec.Tests() {
		got = append(got, tt.Name)
	}
	slices.Sort(got)
	want := []string{"CalcTest#addsSmallNumbers", "CalcTest#addsWrongly", "OtherTest#failsWithMessage", "OtherTest#passes"}
	if !slices.Equal(got, want) {
		t.Errorf("ran %q, want %q (hint %q)", got, want, out.Hint)
	}
}
