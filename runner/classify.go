package runner

import (
	"fmt"
	"syscall"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/report"
)

// silentOutput is the most a failed run may print, in bytes of both
// streams, and still count as a silent failure: it exited non-zero and
// said next to nothing about why.
const silentOutput = 256

// exitOf reads a wait status. Signals report exit code 128+N, as a shell does.
func exitOf(ws syscall.WaitStatus) report.Exit {
	switch {
	case ws.Signaled():
		sig := int(ws.Signal())
		return report.Exit{Signaled: true, Signal: sig, SignalName: kit.SignalName(sig), Code: 128 + sig, CoreDump: ws.CoreDump()}
	case ws.Exited():
		return report.Exit{Exited: true, Code: ws.ExitStatus()}
	}
	return report.Exit{Code: -1}
}

// ending is everything the runner knows when a run is over.
type ending struct {
	exit        report.Exit
	outcome     adapters.Outcome
	timedOut    bool
	cancelled   bool
	stuck       string   // the stuck detector's diagnosis, when it stopped the run
	failed      int      // tests recorded as failed
	recorded    int      // tests recorded at all
	running     []string // tests that started and never finished
	outputBytes int64    // both streams
}

// classify decides a run's status and crash from how it ended. The order
// matters: a run we stopped is stuck, timeout or cancelled whatever it
// printed (stuck first: the verdict came before any later stop); a
// build failure explains everything after it; a signal, or crash evidence in
// the output, outranks test failures, because a crash is never a plain
// failure and never a pass.
func classify(e ending) (report.Status, *report.Crash) {
	crash := &report.Crash{Type: report.CrashNone, ExitCode: e.exit.Code, Signal: e.exit.Signal,
		SignalName: e.exit.SignalName, CoreDump: e.exit.CoreDump, RunningTests: e.running}
	// A run strobe stopped did not crash: the signal it died of was
	// strobe's, so the answer names the stop and drops the signal.
	stopped := func(by, msg string) *report.Crash {
		crash.Type, crash.StoppedBy, crash.Message = report.CrashStopped, by, msg
		crash.Signal, crash.SignalName, crash.CoreDump = 0, "", false
		return crash
	}
	switch {
	case e.stuck != "":
		// The detector stopped the run: whatever it printed after, and
		// however it died of our signals, the answer is the hang.
		return report.Stuck, stopped(report.StoppedStuck, "strobe stopped the run: "+e.stuck)
	case e.timedOut:
		return report.Timeout, stopped(report.StoppedTimeout, "strobe stopped the run: it exceeded its timeout")
	case e.cancelled:
		return report.Cancelled, stopped(report.StoppedCancelled, "strobe stopped the run: it was cancelled")
	case e.outcome.BuildFailed || len(e.outcome.BuildErrors) > 0:
		crash.Type = report.CrashBuildFailure
		return report.BuildFailed, crash
	case e.exit.Signaled:
		crash.Type = kit.CrashType(kit.SignalName(e.exit.Signal))
		crash.Indicators = []string{"process_signaled"}
		crash.Message = fmt.Sprintf("the test process died of %s", e.exit.SignalName)
		// The wait status says how it died; the adapter may know more of
		// what it was doing (the test it names, a sanitizer's report).
		if c := e.outcome.Crash; c != nil {
			crash.Indicators = append(crash.Indicators, c.Indicators...)
			if len(c.RunningTests) > 0 {
				crash.RunningTests = c.RunningTests
			}
			if c.Message != "" {
				crash.Message = c.Message
			}
		}
		return report.Crashed, crash
	case e.outcome.Refused != "":
		// The framework refused the command: no test ran, nothing crashed.
		return report.Error, nil
	case e.outcome.Crash != nil:
		c := *e.outcome.Crash
		if len(c.RunningTests) == 0 {
			c.RunningTests = e.running
		}
		// The exit code is the process's own, whatever signal the
		// adapter read in its output: under a launcher (cargo test, go
		// test) that is the launcher's, not the test binary's.
		c.ExitCode = e.exit.Code
		return report.Crashed, &c
	case e.failed > 0:
		crash.Type = report.CrashTestFailure
		return report.Failed, crash
	case e.exit.Code != 0 && !e.outcome.ExitExplained:
		markers := e.recorded > 0 || e.outcome.Summary != nil
		if !markers && e.outputBytes <= silentOutput {
			crash.Type = report.CrashUnknown
			crash.SilentFailure = true
			crash.Message = fmt.Sprintf("the command exited with code %d, printed almost nothing and reported no test results", e.exit.Code)
			return report.Crashed, crash
		}
		if e.outcome.Summary != nil && e.outcome.Summary.Failed > 0 {
			crash.Type = report.CrashTestFailure
			return report.Failed, crash
		}
		crash.Type = report.CrashUnknown
		if markers {
			crash.Message = fmt.Sprintf("the command exited with code %d although no test failed", e.exit.Code)
		} else {
			crash.Message = fmt.Sprintf("the command exited with code %d and reported no test results", e.exit.Code)
		}
		return report.Failed, crash
	case e.outcome.Summary != nil && e.outcome.Summary.Failed > 0:
		crash.Type = report.CrashTestFailure
		crash.Message = "the command exited 0 but its summary counts failed tests"
		return report.Failed, crash
	case e.outcome.NoTests:
		return report.NoTests, nil
	}
	return report.Passed, nil
}
