package vitest

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
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

// List names, by file and full name, the tests a run records (skipped and
// todo tests aside), under the run's selection.
func TestVitestList(t *testing.T) {
	root := project(t, "basic")
	rec, _, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	var ran []adapters.TestRef
	for _, tc := range rec.Tests() {
		if tc.Status != report.TestSkipped {
			ran = append(ran, adapters.TestRef{Suite: tc.Suite, Name: tc.Name})
		}
	}
	for _, tc := range []struct {
		name string
		req  adapters.Request
		want []string
	}{
		{"all", adapters.Request{}, refKeys(ran)},
		{"integration", adapters.Request{Level: adapters.LevelIntegration}, []string{"test/integration/db.test.js :: connects"}},
		{"one test", adapters.Request{Test: "math > objects > compares deeply"}, []string{"test/unit/math.test.ts :: math > objects > compares deeply"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.ProjectRoot = root
			refs, err := New().(adapters.Lister).List(context.Background(), tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if got := refKeys(refs); !slices.Equal(got, tc.want) {
				t.Errorf("List = %q, want %q", got, tc.want)
			}
		})
	}
}

// Several tests of several files run in one process, exactly those.
func TestVitestMultiSelect(t *testing.T) {
	root := project(t, "basic")
	tests := []adapters.TestRef{
		{Suite: "test/unit/math.test.ts", Name: "math > adds wrongly"},
		{Suite: "test/unit/strings.test.js", Name: "strings > name with (regex) chars [x] * + ?"},
		{Suite: "test/integration/db.test.js", Name: "connects"},
	}
	rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Tests: tests})
	var got []adapters.TestRef
	for _, tc := range rec.Tests() {
		got = append(got, adapters.TestRef{Suite: tc.Suite, Name: tc.Name})
	}
	if !slices.Equal(refKeys(got), refKeys(tests)) {
		t.Errorf("ran %q, want %q (hint %q)", refKeys(got), refKeys(tests), out.Hint)
	}
	if p := rec.Progress(); p.Failed != 1 || p.Passed != 2 {
		t.Errorf("progress %+v, want 1 failed, 2 passed", p)
	}
}

// A describe block's failed hook is a failure under the block's name, and
// that name selects the block's tests (so its hooks run again) when given
// as the test or as a failure to rerun: exactly those, not a block or test
// whose name only begins with it ("setup extra", "adds wrongly"), nor a
// block of that name inside another one, nor, given its file, the block of
// that name in another file. A test's name still selects that test alone.
func TestVitestSelectsBlocks(t *testing.T) {
	root := project(t, "blocks")
	const hooks, other = "hooks.test.js", "other.test.js"
	for _, tc := range []struct {
		name  string
		req   adapters.Request
		want  []string
		fails []string
	}{
		{"block", adapters.Request{Test: "setup"}, []string{
			hooks + " :: setup", hooks + " :: setup > nested > writes", hooks + " :: setup > reads", other + " :: setup > reads"}, []string{"setup"}},
		{"block in its file", adapters.Request{Test: hooks + " > setup"}, []string{
			hooks + " :: setup", hooks + " :: setup > nested > writes", hooks + " :: setup > reads"}, []string{"setup"}},
		{"nested block", adapters.Request{Test: "outer > setup"}, []string{hooks + " :: outer > setup > reads"}, nil},
		{"test", adapters.Request{Test: "adds"}, []string{hooks + " :: adds"}, nil},
		{"failed blocks", adapters.Request{Tests: []adapters.TestRef{{Suite: hooks, Name: "setup"}, {Suite: hooks, Name: "teardown"}}}, []string{
			hooks + " :: setup", hooks + " :: setup > nested > writes", hooks + " :: setup > reads", hooks + " :: teardown", hooks + " :: teardown > works"}, []string{"setup", "teardown"}},
		{"failed test", adapters.Request{Tests: []adapters.TestRef{{Suite: hooks, Name: "adds"}, {Suite: other, Name: "setup > reads"}}}, []string{
			hooks + " :: adds", other + " :: setup > reads"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.ProjectRoot = root
			rec, out, _ := adapterstest.RunReal(t, New(), tc.req)
			var got []adapters.TestRef
			var fails []string
			for _, tt := range rec.Tests() {
				got = append(got, adapters.TestRef{Suite: tt.Suite, Name: tt.Name})
				if tt.Status == report.TestFailed {
					fails = append(fails, tt.Name)
				}
			}
			slices.Sort(fails)
			if !slices.Equal(refKeys(got), tc.want) || !slices.Equal(fails, tc.fails) {
				t.Errorf("ran %q, failed %q; want %q, failed %q (hint %q)", refKeys(got), fails, tc.want, tc.fails, out.Hint)
			}
		})
	}
}

// An error outside any test (a promise rejected and never handled) fails
// vitest's run though every test passed: it is a failure of the test file
// vitest names, at the error's line, and that file's name (the failure's,
// given as the test or as a failure to rerun) runs the file whole.
func TestVitestUnhandledError(t *testing.T) {
	root := project(t, "blocks")
	const file = "unhandled.test.js"
	for _, req := range []adapters.Request{
		{},
		{Test: file},
		{Tests: []adapters.TestRef{{Suite: file, Name: file}}},
	} {
		req.ProjectRoot = root
		rec, out, _ := adapterstest.RunReal(t, New(), req)
		tt, ok := rec.Lookup(file, file)
		if f := tt.Failure; !ok || tt.Status != report.TestFailed || f == nil || f.File != file || f.Line != 4 ||
			!strings.Contains(f.Message, "nobody handles me") || f.Rerun != "npx vitest run "+file {
			t.Errorf("%+v: the file's failure %+v %+v (hint %q)", req, tt, tt.Failure, out.Hint)
		}
		for _, name := range []string{"rejects once it returned", "runs next"} {
			if tt, _ := rec.Lookup(file, name); tt.Status != report.TestPassed {
				t.Errorf("%+v: %s %+v, want passed", req, name, tt)
			}
		}
		if req.Test != "" || req.Tests != nil {
			if n := len(rec.Tests()); n != 3 {
				t.Errorf("%+v: ran %d tests, want the file's 2 and its failure", req, n)
			}
		}
	}
}

// TestVitestScopedFileSelection: strobe run on a directory inside the
// package names a test's file relative to that directory
// (tests/number.test.ts, under zod's src/v4/mini), and `--test 'FILE >
// name'` takes it so: it looked for the file in the package alone, and
// answered no tests.
func TestVitestScopedFileSelection(t *testing.T) {
	pkg := t.TempDir()
	adapterstest.WriteFiles(t, pkg, map[string]string{"src/mini/tests/number.test.ts": ""})
	root := filepath.Join(pkg, "src", "mini")
	for _, test := range []string{"tests/number.test.ts > z.number", "src/mini/tests/number.test.ts > z.number"} {
		args, sel := selectionArgs(adapters.Request{ProjectRoot: root, Test: test}, pkg, false)
		want := selected{File: filepath.Join(root, "tests", "number.test.ts"), Name: "z.number"}
		if len(args) == 0 || args[0] != "src/mini/tests/number.test.ts" || !slices.Equal(sel, []selected{want}) {
			t.Errorf("%q: args %q, selection %+v; want the file from the package and z.number in it", test, args, sel)
		}
	}
}
