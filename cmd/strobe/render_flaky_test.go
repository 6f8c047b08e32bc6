package main

import (
	"strings"
	"testing"

	"strobe/report"
)

func TestRenderFlakyAndRepeat(t *testing.T) {
	for _, tc := range []struct {
		name string
		resp report.Response
		want []string
	}{
		{
			name: "flaky",
			resp: report.Response{Status: report.Passed, Summary: &report.Summary{Passed: 3, Flaky: 1},
				Flaky: []report.Flaky{{Name: "TestFlaky", Attempts: 2, PassedOn: 2,
					FirstFailure: report.FirstFailure{Message: "first run fails", File: "flaky_test.go", Line: 26}}}},
			want: []string{"3 passed (1 flaky), 0 failed", "~ TestFlaky  flaky: passed on attempt 2 of 2",
				"first failure at flaky_test.go:26", "    first run fails"},
		},
		{
			name: "failed every attempt",
			resp: report.Response{Status: report.Failed, Summary: &report.Summary{Failed: 1},
				Failures: []report.Failure{{Name: "TestAlways", Message: "boom", Attempts: 4}}},
			want: []string{"✗ TestAlways", "failed all 4 attempts"},
		},
		{
			name: "repeat",
			resp: report.Response{Status: report.Failed, Summary: &report.Summary{Failed: 1},
				Repeat: &report.Repeat{Runs: 2, Requested: 5, TestCount: 9, Intermittent: 1,
					Tests: []report.RepeatTest{{Name: "TestFlaky", Passed: 1, Failed: 1}}, Stopped: "cancelled after 2 runs"}},
			want: []string{"repeat: 2 of 5 runs, 9 tests: 1 flaky, 0 failed every run", "1/2 failed  TestFlaky", "stopped early: cancelled after 2 runs"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			render(&b, &tc.resp, palette{})
			for _, s := range tc.want {
				if !strings.Contains(b.String(), s) {
					t.Errorf("output lacks %q:\n%s", s, b.String())
				}
			}
		})
	}
}
