package gtest

import (
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/report"
)

// TestCorpus replays real GoogleTest output from other projects (see
// testdata/corpus/SOURCES.tsv): consoles as the live stream, with no
// report (as after a crash, or a binary too old for JSON), and a JSON
// report alone.
func TestCorpus(t *testing.T) {
	for _, tc := range []struct {
		file   string
		report bool
		check  func(t *testing.T, rec *adapters.Recorder)
	}{
		{"console-golden-output-test-release-1.12.1.txt", false, func(t *testing.T, rec *adapters.Recorder) {
			// googletest's own golden output, --gtest_print_time=0 and
			// "googletest-output-test_.cc:#" for line numbers.
			f := rec.Failure("", "NonfatalFailureTest.EscapesStringOperands")
			if f == nil || f.File != "googletest-output-test_.cc" || !strings.Contains(f.Message, `Which is: "actual \"string\""`) ||
				!strings.Contains(f.Message, "\nand 1 more failure in this test:\ngoogletest-output-test_.cc: Expected equality") ||
				len(f.Later) != 1 || !strings.Contains(f.Later[0].Message, `Which is: "actual \"string\""`) {
				t.Errorf("EscapesStringOperands: %+v, want both failures", f)
			}
			if tt, _ := rec.Lookup("", "My/ATypeParamDeathTest/1.ShouldRunFirst"); tt.Status != report.TestPassed {
				t.Errorf("typed parameterized test: %+v", tt)
			}
			// A suite whose SetUpTestSuite fails: its test is skipped and
			// the suite fails under its name.
			if f := rec.Failure("", "TestSuiteThatFailsToSetUp"); f == nil || f.File != "googletest-output-test_.cc" ||
				!strings.HasPrefix(f.Message, "failed in SetUpTestSuite") || !strings.Contains(f.Message, "Value of: false") ||
				f.Rerun != "/project/build/tests '--gtest_filter=TestSuiteThatFailsToSetUp.*'" {
				t.Errorf("TestSuiteThatFailsToSetUp: %+v", f)
			}
		}},
		{"console-vscode-testmate-gtest1-many-assertion-kinds.txt", false, func(t *testing.T, rec *adapters.Recorder) {
			// The recording stops before the test's end, as a crash would.
			f := rec.Failure("", "TestCas1.test2")
			if f == nil || f.Line != 19 || !strings.HasPrefix(f.Message, "did not finish: the test binary died (exit code 1) while it ran\nValue of: 1 == 2") ||
				!strings.Contains(f.Message, "\nand 10 more failures in this test:\n") || len(f.Later) != 10 ||
				f.Later[8].File != "unknown file" || !strings.HasPrefix(f.Later[8].Message, "\nUnexpected mock function call") ||
				!strings.HasSuffix(f.Later[6].File, "gtest1.cpp") || f.Later[6].Line != 45 || !strings.HasPrefix(f.Later[6].Message, "The difference between 1.0f and 1.5f") {
				t.Errorf("TestCas1.test2: %+v", f)
			}
		}},
		{"gmock-console-golden-output.txt", false, nil},
		{"json-c2pa-1-failure-escaped-slashes.json", true, func(t *testing.T, rec *adapters.Recorder) {
			f := rec.Failure("", "Builder.SignVideoStream")
			if f == nil || f.Line != 337 || !strings.HasSuffix(f.File, "/tests/builder.test.cpp") || !strings.HasPrefix(f.Message, "Failed\nFailed: C2pa::Builder: Io") {
				t.Errorf("Builder.SignVideoStream: %+v", f)
			}
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", "corpus", tc.file)
			rec := adapters.NewRecorder()
			p := newParser(rec, "/project", "", filepath.Join(t.TempDir(), "none.json"))
			p.rerun = []string{"/project/build/tests"}
			var lines []adapterstest.Line
			if tc.report {
				p.path = path
			} else {
				lines = adapterstest.ReadLines(t, path, adapters.Stdout)
			}
			out := adapterstest.Replay(p, lines, report.Exit{Exited: true, Code: 1})
			for _, tt := range rec.Tests() {
				if tt.Status == report.TestRunning {
					t.Errorf("%s left running", tt.Name)
				}
			}
			if tc.check != nil {
				tc.check(t, rec)
			}
			res := adapterstest.Normalise(rec, out, nil)
			for i := range res.Tests {
				res.Tests[i].Output = ""
			}
			adapterstest.Golden(t, "corpus/"+strings.TrimSuffix(tc.file, filepath.Ext(tc.file)), res)
		})
	}
}
