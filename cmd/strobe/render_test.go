package main

import (
	"strings"
	"testing"

	"strobe/report"
)

func TestRenderCrashOrStop(t *testing.T) {
	type testCase struct {
		name   string
		crash  report.Crash
		want   []string
		unwant []string
	}
	for _, tc := range []testCase{
		{
			name:   "stuck run stopped by strobe",
			crash:  report.Crash{Type: report.CrashStopped, StoppedBy: report.StoppedStuck, ExitCode: 143, RunningTests: []string{"TestSpin"}},
			want:   []string{"stopped by strobe: stuck while running TestSpin"},
			unwant: []string{"crash:", "SIGTERM", "exit 143"},
		},
		{
			name:  "segfault",
			crash: report.Crash{Type: report.CrashSegmentationFault, Signal: 11, SignalName: "SIGSEGV", ExitCode: 139},
			want:  []string{"crash: segmentation_fault (SIGSEGV, exit 139)"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			c := tc.crash
			render(&b, &report.Response{Status: report.Stuck, Crash: &c}, palette{})
			out := b.String()
			for _, s := range tc.want {
				if !strings.Contains(out, s) {
					t.Errorf("output lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tc.unwant {
				if strings.Contains(out, s) {
					t.Errorf("output has %q:\n%s", s, out)
				}
			}
		})
	}
}
