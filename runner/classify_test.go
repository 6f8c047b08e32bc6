package runner

import (
	"testing"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/report"
)

func TestClassify(t *testing.T) {
	type testCase struct {
		name   string
		e      ending
		status report.Status
		crash  report.CrashType // "" = no crash object
		silent bool
	}
	exited := func(code int) report.Exit { return report.Exit{Exited: true, Code: code} }
	signaled := func(sig int) report.Exit {
		return report.Exit{Signaled: true, Signal: sig, SignalName: kit.SignalName(sig), Code: 128 + sig}
	}
	for _, tc := range []testCase{
		{"clean pass", ending{exit: exited(0), recorded: 3}, report.Passed, "", false},
		{"failures", ending{exit: exited(1), recorded: 3, failed: 1}, report.Failed, report.CrashTestFailure, false},
		{"segfault beats failures", ending{exit: signaled(11), recorded: 3, failed: 1}, report.Crashed, report.CrashSegmentationFault, false},
		{"abort", ending{exit: signaled(6)}, report.Crashed, report.CrashAbort, false},
		{"sigkill", ending{exit: signaled(9)}, report.Crashed, report.CrashKilled, false},
		{"sigbus", ending{exit: signaled(7)}, report.Crashed, report.CrashBusError, false},
		{"sigfpe", ending{exit: signaled(8)}, report.Crashed, report.CrashFloatingPoint, false},
		{"sigill", ending{exit: signaled(4)}, report.Crashed, report.CrashIllegalInstruction, false},
		{"timeout beats signal", ending{exit: signaled(15), timedOut: true}, report.Timeout, report.CrashStopped, false},
		{"cancelled", ending{exit: signaled(15), cancelled: true}, report.Cancelled, report.CrashStopped, false},
		{"stuck beats signal", ending{exit: signaled(15), stuck: "deadlock", timedOut: true}, report.Stuck, report.CrashStopped, false},
		{"build failure", ending{exit: exited(101), outcome: adapters.Outcome{BuildFailed: true}}, report.BuildFailed, report.CrashBuildFailure, false},
		{"framework refused its command", ending{exit: exited(4), outputBytes: 300, outcome: adapters.Outcome{Refused: "unrecognized arguments: --bogus"}}, report.Error, "", false},
		{"signal with the adapter's evidence", ending{exit: signaled(11), outcome: adapters.Outcome{Crash: &report.Crash{Type: report.CrashUnknown, RunningTests: []string{"t"}, Indicators: []string{"asan"}}}}, report.Crashed, report.CrashSegmentationFault, false},
		{"crash seen in output", ending{exit: exited(101), recorded: 2, outcome: adapters.Outcome{Crash: &report.Crash{Type: report.CrashAbort, Signal: 6, ExitCode: 134}}}, report.Crashed, report.CrashAbort, false},
		{"silent failure", ending{exit: exited(3), outputBytes: 10}, report.Crashed, report.CrashUnknown, true},
		{"loud failure without markers", ending{exit: exited(2), outputBytes: 5000}, report.Failed, report.CrashUnknown, false},
		{"non-zero although all passed", ending{exit: exited(1), recorded: 4}, report.Failed, report.CrashUnknown, false},
		{"summary failures", ending{exit: exited(1), outputBytes: 20, outcome: adapters.Outcome{Summary: &report.Summary{Passed: 2, Failed: 1}}}, report.Failed, report.CrashTestFailure, false},
		{"summary failures exit 0", ending{exit: exited(0), outcome: adapters.Outcome{Summary: &report.Summary{Passed: 2, Failed: 1}}}, report.Failed, report.CrashTestFailure, false},
		{"no tests", ending{exit: exited(0), outcome: adapters.Outcome{NoTests: true}}, report.NoTests, "", false},
		{"no tests, the framework's exit code for it", ending{exit: exited(5), outputBytes: 40, outcome: adapters.Outcome{NoTests: true, ExitExplained: true}}, report.NoTests, "", false},
		{"no tests, an exit code unexplained", ending{exit: exited(1), outputBytes: 5000, outcome: adapters.Outcome{NoTests: true}}, report.Failed, report.CrashUnknown, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, crash := classify(tc.e)
			if status != tc.status {
				t.Errorf("status = %s, want %s", status, tc.status)
			}
			switch {
			case tc.crash == "" && crash != nil:
				t.Errorf("crash = %+v, want none", crash)
			case tc.crash != "" && crash == nil:
				t.Errorf("crash = nil, want %s", tc.crash)
			case crash != nil:
				if crash.Type != tc.crash {
					t.Errorf("crash type = %s, want %s", crash.Type, tc.crash)
				}
				// strobe's own stop names itself and never its signal.
				if stopped := tc.e.stuck != "" || tc.e.timedOut || tc.e.cancelled; stopped != (crash.StoppedBy != "") || stopped && (crash.Signal != 0 || crash.SignalName != "") {
					t.Errorf("crash = %+v: stopped_by must be set, and the signal left out, exactly when strobe stopped the run", crash)
				}
				if crash.SilentFailure != tc.silent {
					t.Errorf("silent_failure = %v, want %v", crash.SilentFailure, tc.silent)
				}
				if c := tc.e.outcome.Crash; c != nil && len(c.RunningTests) > 0 && (len(crash.RunningTests) == 0 || crash.RunningTests[0] != c.RunningTests[0]) {
					t.Errorf("running_tests = %v, want the adapter's %v", crash.RunningTests, c.RunningTests)
				}
				// The exit code is the process's own (128+N for signal N),
				// never one an adapter derived from a signal in the output.
				if crash.ExitCode != tc.e.exit.Code {
					t.Errorf("exit_code = %d, want the process's %d", crash.ExitCode, tc.e.exit.Code)
				}
			}
		})
	}
}
