package runner

import (
	"slices"
	"testing"

	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
)

// TestSuggestShouldPanic: a #[should_panic] test that did not panic is
// placed at its fn (libtest says so), and the traces suggested for it are
// what its body calls, one of which was to panic: the line, read as a
// failing line is, suggested the test function itself. A test whose body
// calls nothing of the project has none.
func TestSuggestShouldPanic(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a real crate")
	}
	testutil.RequireTool(t, "cargo")
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"Cargo.toml": "[package]\nname = \"panics\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n",
		"src/lib.rs": `pub fn checked(x: i64) -> i64 {
    if x < -1 {
        panic!("negative");
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "negative")]
    fn checked_panics() {
        checked(-1);
    }

    #[test]
    #[should_panic]
    fn bare() {}
}
`,
	})
	resp, _ := runReq(t, Request{ProjectRoot: root, Framework: "cargo"})
	if resp.Status != report.Failed || len(resp.Failures) != 2 {
		t.Fatalf("status %s, failures %+v; want both tests failed", resp.Status, resp.Failures)
	}
	for _, f := range resp.Failures {
		want := map[string][]string{"tests::checked_panics": {"checked"}, "tests::bare": nil}[f.Name]
		if f.File != "src/lib.rs" || !slices.Equal(f.SuggestedTraces, want) {
			t.Errorf("%s at %s:%d: suggested %q, want %q", f.Name, f.File, f.Line, f.SuggestedTraces, want)
		}
	}
}
