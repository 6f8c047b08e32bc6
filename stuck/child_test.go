package stuck

import (
	"strings"
	"testing"
	"time"
)

// TestTestsChild: a process under the test process, not a test process
// itself, started after the test began, is the test's child (through a
// shell); vitest's esbuild service, started before, and the harness's
// are not, and neither is anything when no test is known to run.
func TestTestsChild(t *testing.T) {
	began := start.Add(2 * time.Second)
	node := &ProcSample{ProcKey: ProcKey{PID: 10, Start: 1}, PPID: 1, Name: "node", Started: start}
	sh := &ProcSample{ProcKey: ProcKey{PID: 20, Start: 1}, PPID: 10, Name: "sh", Started: began.Add(time.Second)}
	sleep := &ProcSample{ProcKey: ProcKey{PID: 21, Start: 1}, PPID: 20, Name: "sleep", Args: []string{"sleep", "1000"}, Started: began.Add(time.Second)}
	esbuild := &ProcSample{ProcKey: ProcKey{PID: 30, Start: 1}, PPID: 10, Name: "esbuild", Started: start.Add(time.Second)}
	view := func(p *ProcSample, test, harness bool) threadView {
		return threadView{proc: p, t: ThreadSample{TID: p.PID}, test: test, harness: harness}
	}
	running := []RunningTest{{Name: "awaits a child", Since: began}}
	for _, tc := range []struct {
		name    string
		views   []threadView
		running []RunningTest
		want    int // the child's pid, 0 for none
	}{
		{"a child through a shell", []threadView{view(node, true, false), view(esbuild, false, false), view(sh, false, false), view(sleep, false, false)}, running, 21},
		{"a service started before the test", []threadView{view(node, true, false), view(esbuild, false, false)}, running, 0},
		{"the harness's", []threadView{view(node, true, false), view(sleep, false, true)}, running, 0},
		{"a test process", []threadView{view(node, true, false), view(sleep, true, false)}, running, 0},
		{"no test known", []threadView{view(node, true, false), view(sleep, false, false)}, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := New(Config{Running: func() []RunningTest { return tc.running }})
			got := 0
			if c := d.testsChild(tc.views); c != nil {
				got = c.PID
			}
			if got != tc.want {
				t.Errorf("child %d, want %d", got, tc.want)
			}
		})
	}
	if got := describeChild(sleep); got != "`sleep 1000` (pid 21)" {
		t.Errorf("describeChild = %q", got)
	}
}

// TestDescribeChild: a child's command line too long to show whole names
// its program by its base name, so that what it runs shows (node 22
// installed from npm, started as process.execPath, is a 60-character
// path); a short one stays whole, and a line still too long is cut
// between characters.
func TestDescribeChild(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"/usr/bin/node", "-e", "setTimeout(() => {}, 3600e3)"}, "`/usr/bin/node -e setTimeout(() => {}, 3600e3)` (pid 7)"},
		{[]string{"/root/.cache/strobe-ci/node-22.23.3/lib/node_modules/node/bin/node", "-e", "setTimeout(() => {}, 3600e3)"}, "`node -e setTimeout(() => {}, 3600e3)` (pid 7)"},
		{[]string{"python3", "-c", strings.Repeat("x", 70) + "é"}, "`python3 -c " + strings.Repeat("x", 66) + "...` (pid 7)"},
		{[]string{"echo", strings.Repeat("x", 71) + "ééé"}, "`echo " + strings.Repeat("x", 71) + "...` (pid 7)"},
	} {
		if got := describeChild(&ProcSample{ProcKey: ProcKey{PID: 7}, Name: "x", Args: tc.args}); got != tc.want {
			t.Errorf("describeChild(%q) =\n %s\nwant\n %s", tc.args, got, tc.want)
		}
	}
}
