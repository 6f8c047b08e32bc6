package stuck

import (
	"context"
	"fmt"
	"time"
)

// Asking a runtime for its deadlocks (jstack starts a JVM of its own:
// about 0.2 s of CPU, 1.5–3 s of wall time on a loaded machine) is spaced
// by the silence, as stack samples are, from the last answer.
const (
	runtimeProbeEvery = 2 * time.Second
	runtimeProbeLong  = 5 * time.Second  // after 10 s of silence
	runtimeProbeMax   = 15 * time.Second // after 30 s
)

func runtimeProbeSpacing(silence time.Duration) time.Duration {
	switch {
	case silence < 10*time.Second:
		return runtimeProbeEvery
	case silence < 30*time.Second:
		return runtimeProbeLong
	}
	return runtimeProbeMax
}

// runtimeDeadlock asks the test process's runtime whether it found a
// deadlock (Config.RuntimeDeadlock) once the tree has been silent at low
// CPU for QuietLock: the runtime's own cycle detection is proof, so one
// answer is a verdict, whatever timed waits /proc shows beside it.
func (d *Detector) runtimeDeadlock(ctx context.Context, now time.Time, silence time.Duration, cpu float64, views []threadView) *Verdict {
	if d.cfg.RuntimeDeadlock == nil || silence < d.cfg.QuietLock {
		return nil
	}
	var target *ProcSample
	for _, v := range views {
		if v.test && !v.harness {
			target = v.proc
			break
		}
	}
	if target == nil || (d.runtimeProbed == target.ProcKey && now.Sub(d.runtimeProbeAt) < runtimeProbeSpacing(silence)) {
		return nil
	}
	cycle, tests := d.cfg.RuntimeDeadlock(ctx, *target)
	// Spaced from the answer: under load jstack's own JVM takes a second
	// or two to start and attach (0.2 s of its CPU).
	d.runtimeProbed, d.runtimeProbeAt = target.ProcKey, d.cfg.Clock.Now()
	if cycle == "" {
		return nil
	}
	diag := fmt.Sprintf("%s: no output for %s, %s CPU, the runtime reports a deadlock: %s", Deadlock, round(silence), pct(cpu), cycle)
	v := &Verdict{Kind: Deadlock, At: now, Diagnosis: diag, Silence: silence, Tests: d.cfg.Running(),
		Process: *target, Stacks: Capture{PID: target.PID, Tool: "runtime", at: now}}
	if len(v.Tests) == 0 {
		// The harness names no test running (Surefire names the class):
		// the runtime's frames do.
		for _, t := range tests {
			v.Tests = append(v.Tests, RunningTest{Name: t})
		}
	}
	d.setWarning("")
	return v
}
