package stuck

import (
	"fmt"
	"strings"
)

// runnableThreads are the test threads in state R while the tree uses no
// CPU: runnable, but not running, because other processes hold the cores.
// Such a thread is not blocked: once it gets a CPU it may free the lock the
// others wait on (on a loaded machine a lock holder can wait for a CPU for
// seconds). A wait without end is only a wait without end while every
// thread it relies on sleeps (S, D), in every sample of the suspicion.
//
// schedstat's run_delay is not used for this: a ticker or Go's sysmon that
// wakes and waits for a CPU under load grows it without being able to free
// anything, and a starved lock holder stays in R, which the sample sees.
func runnableThreads(views []threadView, debuggers map[int]bool) []threadView {
	var out []threadView
	for _, v := range views {
		if v.test && !v.harness && !debuggers[v.proc.PID] && v.t.State == 'R' {
			out = append(out, v)
		}
	}
	return out
}

// starvedWarning says why an idle tree with blocked threads is not judged.
func starvedWarning(runnable []threadView) string {
	var names []string
	for _, v := range runnable {
		names = append(names, fmt.Sprintf("%s (%d)", v.t.Name, v.t.TID))
	}
	return fmt.Sprintf("no verdict while thread %s is runnable, waiting for a CPU", strings.Join(names, ", "))
}
