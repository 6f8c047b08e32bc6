package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
)

// TestFailedRerunsALateError: jest and mocha fail the test running when
// an error another test left behind comes (a timer that throws), and
// that test alone passes. --failed and a retry, which rerun a failed
// test by its name, ran it alone: the answer called it fixed, or flaky,
// while the error was still there. Its failure selects its file
// (failure.select), so both run the file, which fails it again.
func TestFailedRerunsALateError(t *testing.T) {
	for _, tc := range []struct {
		framework, install, project, file, name, msg string
	}{
		{"jest", "adapters/jest/testdata/fixtures", "late", "late.test.js", "late › waits", "late boom"},
		{"mocha", "adapters/mocha/testdata/fixtures/mocha", "late", "test/late.spec.js", "late › waits", "late boom"},
	} {
		t.Run(tc.framework, func(t *testing.T) {
			install := filepath.Join(testutil.Root(), filepath.FromSlash(tc.install))
			adapterstest.NpmCI(t, install)
			project := filepath.Join(install, tc.project)
			// late is the late error's failure in r, which must fail
			// with it again; ok false (and the test failed) when not.
			late := func(r result, what string) (report.Failure, bool) {
				t.Helper()
				if r.resp.Status != report.Failed {
					t.Errorf("%s: status %s, want failed: %s", what, r.resp.Status, r.stdout)
					return report.Failure{}, false
				}
				for _, f := range r.resp.Failures {
					if f.Name != tc.name {
						continue
					}
					if !strings.Contains(f.Message, tc.msg) || f.Select != tc.file {
						t.Errorf("%s: failure %+v, want the late error %q selecting %s", what, f, tc.msg, tc.file)
						return f, false
					}
					return f, true
				}
				t.Errorf("%s: %q did not fail (flaky %+v): failures %+v; hint %q", what, tc.name, r.resp.Flaky, r.resp.Failures, r.resp.Hint)
				return report.Failure{}, false
			}

			first := strobe(t, true, "test", project, "--no-daemon")
			if _, ok := late(first, "the run"); !ok {
				t.FailNow()
			}

			again := strobe(t, true, "test", project, "--no-daemon", "--failed")
			late(again, "--failed")
			ch := again.resp.Changes
			if ch == nil || slices.Contains(ch.Fixed.Names, tc.name) || !slices.Contains(ch.StillFailing.Names, tc.name) {
				t.Errorf("--failed: changes %s, want %q still failing, not fixed", mustJSON(ch), tc.name)
			}
			if again.resp.Rerun == nil || again.resp.Rerun.Of != first.resp.RunID {
				t.Errorf("--failed: rerun %+v, want the first run's failures", again.resp.Rerun)
			}

			retried := strobe(t, true, "test", project, "--no-daemon", "--retries", "1")
			if f, ok := late(retried, "--retries 1"); ok && f.Attempts != 2 {
				t.Errorf("--retries 1: attempts %d, want 2 (failed again when retried)", f.Attempts)
			}
			for _, fl := range retried.resp.Flaky {
				if fl.Name == tc.name {
					t.Errorf("--retries 1: %q reported flaky: %+v; hint %q", tc.name, fl, retried.resp.Hint)
				}
			}
		})
	}
}
