package runner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"strobe/report"
	"strobe/stuck"
	"strobe/stuck/nodeinspect"
)

// maxNodeProcs bounds the node processes whose inspector a capture opens
// (jest runs one worker per core; each capture takes about half a second).
const maxNodeProcs = 6

// nodeEnv gives every run's node processes a private inspector port, so
// that a capture can open the inspector without taking 9229 from a
// concurrent run or the user's debugger. Node reads NODE_OPTIONS; nothing
// else does.
func nodeEnv(env []string) []string {
	cur := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "NODE_OPTIONS="); ok {
			cur = v
		}
	}
	if opts := nodeinspect.WithPortOption(cur); opts != cur {
		env = append(env, "NODE_OPTIONS="+opts)
	}
	return env
}

// inspectorLine says whether an output line is node's own about its
// inspector (printed when strobe opens it or connects): it says nothing
// of the tests' progress, so it does not end a silence. node 22 points
// its help line elsewhere ("For help, see:
// https://nodejs.org/learn/getting-started/debugging"), which node --test's
// own filter of a file's inspector lines misses: its spec reporter prints
// it, with "Debugger ending on ws://…", each time strobe's detector looks.
// Every line of every run goes through it: it reads the bytes in place (a
// string of each line was 5% of the CPU of a run printing 4,000 lines).
func inspectorLine(b []byte) bool {
	if len(b) == 0 || b[0] != 'D' && b[0] != 'F' && b[0] != 'W' {
		return false
	}
	return bytes.HasPrefix(b, []byte("Debugger listening on ws://")) || bytes.HasPrefix(b, []byte("For help, see: https://nodejs.org/en/docs/inspector")) ||
		bytes.HasPrefix(b, []byte("For help, see: https://nodejs.org/learn/getting-started/debugging")) ||
		string(b) == "Debugger attached." || bytes.HasPrefix(b, []byte("Debugger ending on ws://")) || string(b) == "Waiting for the debugger to disconnect..."
}

// nodeCapture is the JavaScript view of a run's node processes.
type nodeCapture struct {
	threads []report.Thread
	final   stuck.Capture // the frames as a capture, for the suggested traces
	idle    bool          // every thread waited in its event loop
	handles []string      // what kept the idle loops alive
	test    string        // the running test, as jest's or vitest's expect state names it
	reason  string        // why some process could not be read
}

// captureNode reads the JavaScript stacks of p, when it is node, and of
// the other node processes of the run (jest's and vitest's workers run
// the tests while the process the detector picked may only wait for
// them). ok is false when the run has no node process.
func (r *Run) captureNode(p stuck.ProcSample) (nodeCapture, bool) {
	var pids []int
	if nodeinspect.IsNode(p.Exe, p.Name) {
		pids = append(pids, p.PID)
	}
	if r.proc != nil {
		for _, pid := range nodeTree(r.proc.pgid) {
			if pid != p.PID && len(pids) < maxNodeProcs {
				pids = append(pids, pid)
			}
		}
	}
	if len(pids) == 0 {
		return nodeCapture{}, false
	}
	if w := r.watch.Load(); w != nil {
		w.inspected.Store(true)
	}
	var nc nodeCapture
	nc.idle = true
	nc.final = stuck.Capture{PID: pids[0], Tool: stuck.NodeInspectorTool}
	var reasons []string
	// A thread blocked in native code cannot be paused: each such process
	// costs seconds, and the answer waits for this capture.
	all, cancelAll := context.WithTimeout(context.Background(), 12*time.Second)
	defer cancelAll()
	for i, pid := range pids {
		if i > 0 && !nc.idle {
			break // the process running JavaScript is found: the others wait for it
		}
		if all.Err() != nil {
			reasons = append(reasons, fmt.Sprintf("%d node processes not read: out of time", len(pids)-i))
			break
		}
		ctx, cancel := context.WithTimeout(all, 6*time.Second)
		c, err := nodeinspect.Take(ctx, pid)
		cancel()
		if err != nil {
			reasons = append(reasons, fmt.Sprintf("node %d: %v", pid, err))
			continue
		}
		nc.add(c, r.req.ProjectRoot, len(pids) > 1)
	}
	if len(nc.threads) == 0 {
		nc.idle = false
	}
	nc.reason = strings.Join(reasons, "; ")
	return nc, true
}

// add appends one process's threads: running ones with their frames,
// idle ones with what keeps their loop alive.
func (nc *nodeCapture) add(c nodeinspect.Capture, root string, several bool) {
	for _, th := range c.Threads {
		name := shortJSPath(th.Name, root)
		if several {
			name = fmt.Sprintf("node %d %s", c.PID, name)
		}
		if th.Idle {
			var lines []string
			for _, h := range collapse(th.Handles) {
				lines = append(lines, "waiting on "+shortJSPath(h, root))
			}
			if len(lines) == 0 {
				lines = []string{"waiting on nothing of its own (its parent or the test framework's messages)"}
			}
			nc.handles = append(nc.handles, th.Handles...)
			if nc.test == "" {
				nc.test = th.Test
			}
			nc.threads = append(nc.threads, report.Thread{Name: name + " (event loop idle)", Stack: lines})
			continue
		}
		nc.idle = false
		st := stuck.Stack{Name: name}
		var lines []string
		for _, f := range th.Frames {
			f.File = relJS(f.File, root)
			lines = append(lines, f.String())
			st.Frames = append(st.Frames, stuck.Frame{Func: f.Func, File: f.File, Line: f.Line})
		}
		// Below the outermost frame of the project's own (the test) run
		// the framework's runner and node's task queues: counted, not
		// listed (vitest's were 15 of a spin's 17 frames).
		for i := len(st.Frames) - 1; i >= 0; i-- {
			if ownJS(st.Frames[i]) {
				if n := len(lines) - i - 1; n > 1 {
					lines = append(lines[:i+1], fmt.Sprintf("… %d more frames", n))
				}
				break
			}
		}
		nc.final.Stacks = append(nc.final.Stacks, st)
		nc.threads = append(nc.threads, report.Thread{Name: name, Stack: lines})
	}
}

// relJS makes a script path relative to the project root when under it.
func relJS(file, root string) string {
	if root == "" || !filepath.IsAbs(file) {
		return file
	}
	if rel, err := filepath.Rel(root, file); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return file
}

// shortJSPath makes the project root's paths in a handle's description
// relative.
func shortJSPath(s, root string) string {
	if root == "" {
		return s
	}
	return strings.ReplaceAll(s, strings.TrimSuffix(root, "/")+"/", "")
}

// ownJS says whether a frame, its file made relative to the project, is
// the project's own script: not a dependency (node_modules), not node's
// internals, not outside the project.
func ownJS(f stuck.Frame) bool {
	return f.File != "" && !filepath.IsAbs(f.File) && !strings.Contains(f.File, "node_modules/") &&
		!strings.HasPrefix(f.File, "node:") && !strings.Contains(f.File, "://")
}

// jsTraces are the project's own JavaScript functions in the frames,
// innermost first: dependencies (node_modules) and node's internals left
// out, and the running tests themselves.
func jsTraces(c stuck.Capture, tests []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range c.Stacks {
		for _, f := range s.Frames {
			if !ownJS(f) {
				continue
			}
			if f.Func == "<anonymous>" || seen[f.Func] || contains(tests, f.Func) {
				continue
			}
			seen[f.Func] = true
			out = append(out, f.Func)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s || strings.HasSuffix(x, " "+s) {
			return true
		}
	}
	return false
}

// nodeTree lists the node processes under root (root included), parents
// first, from the kernel's children lists.
func nodeTree(root int) []int {
	var out []int
	queue := []int{root}
	for seen := 0; len(queue) > 0 && seen < 512; seen++ {
		pid := queue[0]
		queue = queue[1:]
		exe, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
		comm, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
		if nodeinspect.IsNode(exe, strings.TrimSpace(string(comm))) {
			out = append(out, pid)
		}
		tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
		for _, t := range tasks {
			b, _ := os.ReadFile(t)
			for _, f := range strings.Fields(string(b)) {
				if c, err := strconv.Atoi(f); err == nil {
					queue = append(queue, c)
				}
			}
		}
	}
	return out
}

// idleDiagnosis says why a node run that reached its timeout was hung
// though no thread ran: its event loop waited, kept alive by handles (a
// timer, a server) while the awaited promise never settled.
func idleDiagnosis(timeout time.Duration, handles []string, root string, afterTests bool) string {
	return fmt.Sprintf("event loop idle: no JavaScript running at the %v timeout", timeout) + keptAlive(handles, root, afterTests)
}

// keptAlive says what keeps an idle event loop alive, for a diagnosis;
// afterTests, when no test runs any more.
func keptAlive(handles []string, root string, afterTests bool) string {
	if len(handles) == 0 {
		return "; no timer or handle of its own keeps it alive (waiting on its parent or the framework)"
	}
	// Timers first: a framework's own message ports and pipes are there
	// in every run, a test's interval is the news.
	handles = collapse(handles)
	slices.SortStableFunc(handles, func(a, b string) int { return cmpBool(!isTimer(a), !isTimer(b)) })
	shown := slices.Clone(handles)
	if len(shown) > 3 {
		shown = shown[:3]
	}
	for i, h := range shown {
		shown[i] = shortJSPath(h, root)
	}
	d := ", kept alive by " + strings.Join(shown, ", ")
	if len(handles) > 3 {
		d += fmt.Sprintf(" and %d more", len(handles)-3)
	}
	if afterTests {
		return d + ": what a test or hook opened and did not close"
	}
	return d + ": a test awaits a promise that never settles"
}

// collapse counts repeated handles ("MessagePort ×3"), keeping the
// order of their first appearance.
func collapse(handles []string) []string {
	count := map[string]int{}
	var order []string
	for _, h := range handles {
		if count[h] == 0 {
			order = append(order, h)
		}
		count[h]++
	}
	out := make([]string, 0, len(order))
	for _, h := range order {
		if n := count[h]; n > 1 {
			h = fmt.Sprintf("%s ×%d", h, n)
		}
		out = append(out, h)
	}
	return out
}

func isTimer(h string) bool {
	return strings.HasPrefix(h, "setInterval ") || strings.HasPrefix(h, "setTimeout ")
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}
