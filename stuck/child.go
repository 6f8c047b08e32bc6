package stuck

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

// node waits for a child process in its event loop (SIGCHLD through a
// pipe), not in wait4: a test awaiting a child's exit looks like one
// awaiting a promise that never settles. The child tells them apart,
// when the adapter knows its own processes: a process under a test
// process, neither a test process itself (vitest's forks run the tests)
// nor a launcher (the shell of exec) nor the harness's, and started
// after the running tests began (vitest's esbuild service starts with
// vitest), is one a test started.

// childSlack: a child the test starts at once may start a little before
// the runner reads the line that says the test began, and /proc counts
// start times in clock ticks.
const childSlack = 500 * time.Millisecond

// testsChild is the process a running test started and may be waiting
// for, nil when there is none (or no test is known to run).
func (d *Detector) testsChild(views []threadView) *ProcSample {
	running := d.cfg.Running()
	if len(running) == 0 {
		return nil
	}
	var began time.Time
	for _, t := range running {
		if t.Since.IsZero() {
			return nil
		}
		if t.Since.After(began) {
			began = t.Since
		}
	}
	procs := map[int]*ProcSample{}
	test := map[int]bool{}
	harness := map[int]bool{}
	for _, v := range views {
		procs[v.proc.PID] = v.proc
		test[v.proc.PID] = v.test
		harness[v.proc.PID] = harness[v.proc.PID] || v.harness
	}
	for _, v := range views {
		p := v.proc
		if v.t.TID != p.PID || v.test || harness[p.PID] || launchers[p.Name] ||
			p.Started.IsZero() || p.Started.Before(began.Add(-childSlack)) {
			continue
		}
		for a := procs[p.PPID]; a != nil; a = procs[a.PPID] {
			if test[a.PID] {
				return p
			}
			if a.PPID == a.PID {
				break
			}
		}
	}
	return nil
}

// describeChild names a child process for a verdict: its command line,
// shortened, and its pid. A line too long to show whole names its program
// by the base name of its path: a node started as process.execPath is
// node's whole path, 60 characters for a node installed from npm
// (~/.cache/…/lib/node_modules/node/bin/node) or by nvm, which left no
// room for the script it ran. The line is cut between characters, not
// within one.
func describeChild(p *ProcSample) string {
	args := p.Args
	if len(strings.Join(args, " ")) > 80 && strings.Contains(args[0], "/") {
		args = append([]string{filepath.Base(args[0])}, args[1:]...)
	}
	cmd := strings.Join(args, " ")
	if cmd == "" {
		cmd = p.Name
	}
	if len(cmd) > 80 {
		cut := 77
		for cut > 0 && !utf8.RuneStart(cmd[cut]) {
			cut--
		}
		cmd = cmd[:cut] + "..."
	}
	return fmt.Sprintf("`%s` (pid %d)", cmd, p.PID)
}
