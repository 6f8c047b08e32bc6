// Package nodeinspect reads the JavaScript stacks of a live node process
// through its V8 inspector: the process is told to open it (SIGUSR1, on
// the private port NODE_OPTIONS gave it), each thread — the main one and
// every worker thread — is paused where it runs, and the frames and the
// timers and handles keeping its event loop alive are read. A report's
// capture (Take) leaves the threads paused: the run is stopped right
// after; the detector's loop samples (Sampler) resume them at once.
package nodeinspect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Frame is one JavaScript frame, lines and columns counted from 1.
type Frame struct {
	Func string // "<anonymous>" for an unnamed function
	File string // a path for file:// scripts, node:internal/… as is
	Line int
	Col  int
}

func (f Frame) String() string {
	if f.File == "" {
		return f.Func
	}
	return fmt.Sprintf("%s (%s:%d:%d)", f.Func, f.File, f.Line, f.Col)
}

// Thread is one JavaScript thread of a process.
type Thread struct {
	Name string // "main thread" or "worker thread 1 (file)"
	// Frames are where the thread was paused, innermost first. Empty when
	// it was idle: its event loop waited, running no JavaScript.
	Frames []Frame
	Idle   bool
	// Handles are what keeps an idle event loop alive (timers with their
	// callbacks, servers, sockets, pending requests).
	Handles []string
	// Test is the test the thread's framework says is running (jest's and
	// vitest's expect state), "" when none does.
	Test string
}

// Capture is what a process's inspector showed.
type Capture struct {
	PID     int
	Threads []Thread
	Took    time.Duration
}

// Timing bounds the steps of a capture.
var (
	openWait = 3 * time.Second // for the inspector to listen after SIGUSR1
	// busyWait is how long a command may go unanswered before the thread
	// counts as running JavaScript: an idle event loop answers within
	// milliseconds, a synchronous loop only once paused.
	busyWait = time.Second
)

// ErrYoung is the refusal to signal a node process that started less
// than minAge ago.
var ErrYoung = errors.New("it started under 250 ms ago: node may not handle SIGUSR1 yet, whose default action would end it")

// minAge is how old a node process must be to be told to open its
// inspector: node 20 dies of SIGUSR1 in its first 3 ms on an idle
// machine here, and a loaded one may start it many times slower.
const minAge = 250 * time.Millisecond

// ErrNotPrivate says a process's inspector cannot be opened without
// taking the port every debugger shares.
var ErrNotPrivate = errors.New("its NODE_OPTIONS lack " + PortOption + " (started outside strobe's environment), and opening the inspector would take port 9229")

// Take captures pid's JavaScript threads; frames carry absolute paths.
func Take(ctx context.Context, pid int) (Capture, error) {
	start := time.Now()
	target, err := open(ctx, pid)
	if err != nil {
		return Capture{PID: pid}, err
	}
	c, err := dial(ctx, target)
	if err != nil {
		return Capture{PID: pid}, err
	}
	defer c.close()
	main := session{c: c}
	th, err := thread(ctx, main, "main thread", false)
	if err != nil {
		return Capture{PID: pid}, err
	}
	out := Capture{PID: pid, Threads: []Thread{th}}
	out.Threads = append(out.Threads, workers(ctx, c)...)
	out.Took = time.Since(start)
	return out, nil
}

// opened remembers the inspector each process opened for strobe (by pid
// and start time): asking every port of the process for /json/list would
// also ask the test's own servers, which a probe of an honest run must
// not disturb.
var opened sync.Map // procID → target URL

type procID struct {
	pid   int
	start string
}

// open makes pid's inspector listen and answers its WebSocket URL. The
// port is the one that opened after SIGUSR1; only an inspector strobe did
// not open (the user's --inspect) is looked for among the ports the
// process listens on already.
func open(ctx context.Context, pid int) (string, error) {
	id := procID{pid, startTime(pid)}
	if u, ok := opened.Load(id); ok {
		return u.(string), nil
	}
	before := listenPorts(pid)
	if !privatePort(pid) {
		if u := targetOf(ctx, before); u != "" {
			return u, nil // the user's own --inspect
		}
		return "", ErrNotPrivate
	}
	if a, ok := age(id.start); ok && a < minAge {
		// Before node installs its SIGUSR1 handler (its first
		// milliseconds, more on a loaded machine: a worker a test runner
		// just forked), the signal's default action ends it.
		return "", ErrYoung
	}
	if err := syscall.Kill(pid, syscall.SIGUSR1); err != nil {
		return "", fmt.Errorf("signalling node to open its inspector: %w", err)
	}
	end := time.Now().Add(openWait)
	for time.Now().Before(end) {
		fresh := slices.DeleteFunc(listenPorts(pid), func(p int) bool { return slices.Contains(before, p) })
		if u := targetOf(ctx, fresh); u != "" {
			opened.Store(id, u)
			return u, nil
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
	}
	return "", fmt.Errorf("the inspector did not open within %v of SIGUSR1", openWait)
}

// targetOf asks each port for its inspector target (GET /json/list).
func targetOf(ctx context.Context, ports []int) string {
	for _, port := range ports {
		ctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://127.0.0.1:"+strconv.Itoa(port)+"/json/list", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			cancel()
			continue
		}
		var targets []struct {
			URL string `json:"webSocketDebuggerUrl"`
		}
		err = json.NewDecoder(resp.Body).Decode(&targets)
		resp.Body.Close()
		cancel()
		if err == nil && len(targets) > 0 && targets[0].URL != "" {
			return targets[0].URL
		}
	}
	return ""
}

// callFrame is a Debugger.CallFrame, what we read of it.
type callFrame struct {
	FunctionName string `json:"functionName"`
	URL          string `json:"url"`
	Location     struct {
		ScriptID     string `json:"scriptId"`
		LineNumber   int    `json:"lineNumber"`
		ColumnNumber int    `json:"columnNumber"`
	} `json:"location"`
}

// thread reads one thread: a probe tells a running thread from an idle
// one; a running one is paused and its frames read. A report (sampling
// false) reads an idle thread's timers and handles, and leaves a running
// one paused (the run is stopped next); a loop sample resumes it at once
// and leaves idle threads alone (finding timers walks the heap).
func thread(ctx context.Context, s session, name string, sampling bool) (Thread, error) {
	th := Thread{Name: name}
	if sampling {
		// A pause that landed after an earlier sample stopped waiting
		// holds the thread now: resume it before anything else.
		s.drain()
	}
	if idle(ctx, s) {
		th.Idle = true
		if !sampling {
			th.Handles = handles(ctx, s)
			th.Test = currentTest(ctx, s)
		}
		return th, nil
	}
	if err := s.enableDebugger(ctx); err != nil {
		return th, err
	}
	s.await(true)
	defer s.await(false)
	if err := s.call(ctx, "Debugger.pause", nil, nil); err != nil {
		return th, err
	}
	pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	m, err := s.waitEvent(pctx, "Debugger.paused")
	if err != nil {
		return th, fmt.Errorf("pausing %s: %w", name, err)
	}
	if sampling {
		// Resume before reading: the thread's CPU share is what makes
		// it busy in the detector's eyes. A second pause (V8 may break
		// again at the next statement) is no longer awaited: resumed
		// as it comes.
		s.await(false)
		if err := s.call(ctx, "Debugger.resume", nil, nil); err != nil {
			return th, err
		}
	}
	var p struct{ CallFrames []callFrame }
	if err := json.Unmarshal(m.Params, &p); err != nil {
		return th, fmt.Errorf("reading %s's frames: %w", name, err)
	}
	for _, f := range p.CallFrames {
		th.Frames = append(th.Frames, frameOf(f, s))
	}
	return th, nil
}

// idle probes whether the thread's event loop waits, running no
// JavaScript. The inspector serves a command even inside a synchronous
// loop (V8 runs it at an interrupt), so the answer alone tells nothing;
// the JavaScript stack under the probe does: an idle thread's probe is
// the only frame on it.
func idle(ctx context.Context, s session) bool {
	ctx, cancel := context.WithTimeout(ctx, busyWait)
	defer cancel()
	var r struct {
		Result struct{ Value any } `json:"result"`
	}
	err := s.call(ctx, "Runtime.evaluate", map[string]any{"expression": idleProbeJS, "returnByValue": true}, &r)
	depth, ok := r.Result.Value.(float64)
	return err == nil && ok && depth <= 1
}

// idleProbeJS counts the JavaScript frames under the probe, its own
// included.
const idleProbeJS = `(() => { const l = Error.stackTraceLimit; Error.stackTraceLimit = 50; const s = new Error().stack; Error.stackTraceLimit = l; return s.split('\n').filter((x) => x.trim().startsWith('at ')).length - 1; })()`

func frameOf(f callFrame, s session) Frame {
	fn := f.FunctionName
	if fn == "" {
		fn = "<anonymous>"
	}
	return locate(fn, f.URL, f.Location.ScriptID, f.Location.LineNumber, f.Location.ColumnNumber, s)
}

// locate makes a frame of a 0-based position in a script: the original
// source's position when the script has a source map.
func locate(fn, u, scriptID string, line0, col0 int, s session) Frame {
	sc := s.script(scriptID)
	if sc != nil {
		if u == "" {
			u = sc.url
		}
		s.c.mu.Lock() // a script's map is read once, by whichever frame needs it first
		file, line, col, ok := sc.original(line0, col0)
		s.c.mu.Unlock()
		if ok {
			return Frame{Func: fn, File: file, Line: line, Col: col}
		}
	}
	return Frame{Func: fn, File: filePath(u), Line: line0 + 1, Col: col0 + 1}
}

// filePath turns a script URL into a path (file://) or keeps it
// (node:internal/…, an http URL of a bundler).
func filePath(u string) string {
	if rest, ok := strings.CutPrefix(u, "file://"); ok {
		if p, err := url.PathUnescape(rest); err == nil {
			return p
		}
		return rest
	}
	return u
}

// workers attaches to every worker thread (vitest's threads pool, a
// test's own worker_threads) through the NodeWorker domain and reads each.
func workers(ctx context.Context, c *conn) []Thread {
	var out []Thread
	for _, w := range workerSessions(ctx, c) {
		th, err := thread(ctx, session{c: c, id: w.id}, w.name, false)
		if err != nil {
			th = Thread{Name: w.name + ": " + err.Error()}
		}
		out = append(out, th)
	}
	return out
}

type worker struct{ id, name string }

// maxWorkers bounds the worker threads read in one process: a pool's
// threads run the same code; eight show it.
const maxWorkers = 8

// workerSessions attaches to the process's worker threads. The first
// call enables the NodeWorker domain and gives the attach events of the
// workers that exist a moment to arrive; later ones answer the list as
// the events keep it.
func workerSessions(ctx context.Context, c *conn) []worker {
	c.mu.Lock()
	enabled := c.workerEnabled
	c.workerEnabled = true
	c.mu.Unlock()
	if !enabled {
		if err := (session{c: c}).call(ctx, "NodeWorker.enable", map[string]any{"waitForDebuggerOnStart": false}, nil); err != nil {
			return nil
		}
		select {
		case <-time.After(150 * time.Millisecond):
		case <-ctx.Done():
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.workers)
}

// currentTestJS reads the running test's name from the expect state jest
// and vitest keep on the global object of the context the tests run in.
const currentTestJS = `(() => {
  for (const k of [Symbol.for('expect-global'), Symbol.for('$$jest-matchers-object')]) {
    const v = globalThis[k];
    if (!v) continue;
    const st = typeof v.getState === 'function' ? v.getState() : v.state;
    if (st && st.currentTestName) return String(st.currentTestName);
  }
  return '';
})()`

// currentTest asks every JavaScript context of the thread for the
// running test: jest runs tests in a vm context of their own, vitest in
// the main one.
func currentTest(ctx context.Context, s session) string {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	ids := []int{0} // 0: the default context
	if s.call(ctx, "Runtime.enable", nil, nil) == nil {
		// The contexts that exist are announced before the reply.
		ch := s.eventsCh()
	drain:
		for {
			select {
			case m := <-ch:
				if m.Method != "Runtime.executionContextCreated" {
					continue
				}
				var p struct {
					Context struct {
						ID int `json:"id"`
					} `json:"context"`
				}
				if json.Unmarshal(m.Params, &p) == nil && p.Context.ID != 0 {
					ids = append(ids, p.Context.ID)
				}
			default:
				break drain
			}
		}
	}
	for _, id := range ids {
		params := map[string]any{"expression": currentTestJS, "returnByValue": true}
		if id != 0 {
			params["contextId"] = id
		}
		var r struct{ Result remoteObject }
		if s.call(ctx, "Runtime.evaluate", params, &r) == nil {
			if name, _ := r.Result.Value.(string); name != "" {
				return name
			}
		}
	}
	return ""
}

// handlesJS lists what keeps an event loop alive. Timers are not handles
// since node 11 (process._getActiveHandles leaves them out), so the
// active ones are found among the instances of Timeout's prototype by
// the caller (Runtime.queryObjects); this function gets them as this.
const handlesJS = `function () {
  const std = new Set([process.stdin, process.stdout, process.stderr]);
  const out = [];
  for (const h of process._getActiveHandles()) {
    if (std.has(h)) continue;
    const n = (h && h.constructor && h.constructor.name) || typeof h;
    let what = n;
    try {
      const a = h.address && h.address();
      if (a && a.port !== undefined) what += ' listening on ' + a.address + ':' + a.port;
      else if (h.remoteAddress) what += ' to ' + h.remoteAddress + ':' + h.remotePort;
      else if (h.pid) what += ' pid ' + h.pid + (h.spawnfile ? ' (' + h.spawnfile + ')' : '');
    } catch (e) {}
    out.push(what);
  }
  for (const r of process._getActiveRequests()) out.push('request ' + ((r && r.constructor && r.constructor.name) || typeof r));
  const timers = (this || []).filter((t) => t && !t._destroyed && t._idleTimeout >= 0 && typeof t._onTimeout === 'function');
  return JSON.stringify({
    other: out,
    timers: timers.slice(0, 16).map((t) => ({
      kind: t._repeat ? 'setInterval' : 'setTimeout',
      ms: t._idleTimeout,
      fn: t._onTimeout.name || '',
    })),
    more: Math.max(0, timers.length - 16),
  });
}`

// timersJS returns the active timers' callbacks, for their locations.
const timersJS = `function () {
  return (this || []).filter((t) => t && !t._destroyed && t._idleTimeout >= 0 && typeof t._onTimeout === 'function').slice(0, 16).map((t) => t._onTimeout);
}`

type remoteObject struct {
	ObjectID string `json:"objectId"`
	Value    any    `json:"value"`
}

// handles reads what keeps an idle thread's event loop alive: timers
// (with their callbacks' locations), servers, sockets, child processes,
// pending requests. Best effort: a step that fails leaves its part out.
func handles(ctx context.Context, s session) []string {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	var proto struct{ Result remoteObject }
	// A throwaway timer, cleared at once, to reach Timeout.prototype.
	if err := s.call(ctx, "Runtime.evaluate", map[string]any{
		"expression": "(() => { const t = setTimeout(() => {}, 1e9); clearTimeout(t); return Object.getPrototypeOf(t); })()",
	}, &proto); err != nil {
		return []string{"handles unreadable: " + err.Error()}
	}
	var all struct{ Objects remoteObject }
	if proto.Result.ObjectID != "" {
		s.call(ctx, "Runtime.queryObjects", map[string]any{"prototypeObjectId": proto.Result.ObjectID}, &all)
	}
	var target string
	if all.Objects.ObjectID != "" {
		target = all.Objects.ObjectID
	} else {
		target = proto.Result.ObjectID // no timers to read: `this` holds none
	}
	var res struct{ Result remoteObject }
	if err := s.call(ctx, "Runtime.callFunctionOn", map[string]any{
		"objectId": target, "functionDeclaration": handlesJS, "returnByValue": true,
	}, &res); err != nil {
		return []string{"handles unreadable: " + err.Error()}
	}
	str, _ := res.Result.Value.(string)
	var h struct {
		Other  []string
		Timers []struct {
			Kind string
			MS   float64
			Fn   string
		}
		More int
	}
	if json.Unmarshal([]byte(str), &h) != nil {
		return nil
	}
	locs := timerLocations(ctx, s, all.Objects.ObjectID)
	var out []string
	for i, t := range h.Timers {
		line := t.Kind + " " + timerDelay(t.MS)
		fn := t.Fn
		if fn == "" {
			fn = "<anonymous>"
		}
		line += " → " + fn
		if i < len(locs) && locs[i] != "" {
			line += " (" + locs[i] + ")"
		}
		out = append(out, line)
	}
	if h.More > 0 {
		out = append(out, fmt.Sprintf("… %d more timers", h.More))
	}
	return append(out, h.Other...)
}

// timerLocations reads where each active timer's callback is defined
// ([[FunctionLocation]]), "" when unknown.
func timerLocations(ctx context.Context, s session, timers string) []string {
	if timers == "" {
		return nil
	}
	var fns struct{ Result remoteObject }
	if s.call(ctx, "Runtime.callFunctionOn", map[string]any{"objectId": timers, "functionDeclaration": timersJS}, &fns) != nil || fns.Result.ObjectID == "" {
		return nil
	}
	type prop struct {
		Name  string       `json:"name"`
		Value remoteObject `json:"value"`
	}
	var elems struct{ Result []prop }
	if s.call(ctx, "Runtime.getProperties", map[string]any{"objectId": fns.Result.ObjectID, "ownProperties": true}, &elems) != nil {
		return nil
	}
	// The debugger announces every script's URL when enabled, before
	// its reply.
	s.enableDebugger(ctx)
	var out []string
	for _, e := range elems.Result {
		i, err := strconv.Atoi(e.Name)
		if err != nil || e.Value.ObjectID == "" {
			continue
		}
		var internal struct {
			InternalProperties []struct {
				Name  string `json:"name"`
				Value struct {
					Value struct {
						ScriptID     string `json:"scriptId"`
						LineNumber   int    `json:"lineNumber"`
						ColumnNumber int    `json:"columnNumber"`
					} `json:"value"`
				} `json:"value"`
			} `json:"internalProperties"`
		}
		if s.call(ctx, "Runtime.getProperties", map[string]any{"objectId": e.Value.ObjectID, "ownProperties": true}, &internal) != nil {
			continue
		}
		for _, p := range internal.InternalProperties {
			if p.Name != "[[FunctionLocation]]" {
				continue
			}
			loc := p.Value.Value
			for len(out) <= i {
				out = append(out, "")
			}
			f := locate("", "", loc.ScriptID, loc.LineNumber, loc.ColumnNumber, s)
			out[i] = fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Col)
		}
	}
	return out
}

// timerDelay is a timer's delay as a person reads it: 1000ms, 1.5ms,
// 2147483647ms (mocha's timeout(0): the largest delay node takes), not
// %g's 2.147483647e+09ms.
func timerDelay(ms float64) string {
	return strconv.FormatFloat(ms, 'f', -1, 64) + "ms"
}
