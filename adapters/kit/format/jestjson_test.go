package format

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecodeJestReport decodes the real jest and vitest JSON reports of
// the two adapters' corpora (several jest versions, jasmine2 and circus,
// vitest 1) and checks the tests found against the report's own counts.
// The adapters' golden tests check what they make of them.
func TestDecodeJestReport(t *testing.T) {
	var files []string
	for _, dir := range []string{"../../jest/testdata/corpus", "../../vitest/testdata/corpus"} {
		m, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		files = append(files, m...)
	}
	if len(files) < 8 {
		t.Fatalf("found %d corpus reports, want the jest and vitest corpora's 8", len(files))
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var counts struct{ NumPassedTests, NumFailedTests int }
			if err := json.Unmarshal(b, &counts); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rep, err := DecodeJestReport(f)
			if err != nil {
				t.Fatal(err)
			}
			passed, failed := 0, 0
			for _, tf := range rep.TestResults {
				if tf.Name == "" {
					t.Errorf("a file without its name: %+v", tf)
				}
				for _, a := range tf.AssertionResults {
					switch a.Status {
					case "passed":
						passed++
					case "failed":
						failed++
						if len(a.FailureMessages) == 0 {
							t.Errorf("%s: failed without a message", a.Name(" › "))
						}
					}
				}
			}
			// The totals differ across versions (jest 24 leaves todo out).
			if passed != counts.NumPassedTests || failed != counts.NumFailedTests {
				t.Errorf("decoded %d passed, %d failed; the report counts %d, %d", passed, failed, counts.NumPassedTests, counts.NumFailedTests)
			}
		})
	}
}

func TestJestAssertionName(t *testing.T) {
	for _, tc := range []struct {
		a    JestAssertion
		want string
	}{
		{JestAssertion{Title: "adds"}, "adds"},
		{JestAssertion{AncestorTitles: []string{"math", "sum"}, Title: "adds"}, "math › sum › adds"},
		{JestAssertion{AncestorTitles: []string{"", "useToString"}, Title: "测试"}, " › useToString › 测试"}, // vitest's root suite
	} {
		if got := tc.a.Name(" › "); got != tc.want {
			t.Errorf("Name = %q, want %q", got, tc.want)
		}
	}
}
