package daemon

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"strobe/adapters"
	"strobe/report"
	"strobe/runner"
)

// retainResults is how long a finished run's result stays in memory; after
// it, debug_test_status reads it back from the details file.
const retainResults = 30 * time.Minute

// entry is one run the daemon owns. Once the run ends only its response
// is kept: the runner's Run holds every test's output (up to 32 MiB), too
// much to keep for retainResults.
type entry struct {
	id         string
	framework  string
	root       string
	detailsDir string
	clientPID  int
	started    time.Time
	done       <-chan struct{}

	mu       sync.Mutex
	run      *runner.Run      // nil once finished
	result   *report.Response // set once finished
	finished time.Time        // zero while running
}

// Result is the run's response; valid once done is closed.
func (e *entry) Result() *report.Response {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.result != nil {
		return e.result
	}
	return e.run.Result()
}

// Running is the running answer with live progress, or the result if the
// run has ended.
func (e *entry) Running() *report.Response {
	select {
	case <-e.done:
		return e.Result()
	default:
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.run == nil {
		return e.result
	}
	return e.run.Running()
}

// Cancel stops the run if it is still going.
func (e *entry) Cancel() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.run != nil {
		e.run.Cancel()
	}
}

func (e *entry) finishedAt() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.finished
}

// registry holds the daemon's runs by id. A run belongs to the daemon, not
// to the connection that started it: a dropped connection never stops it,
// and its result stays here for retainResults.
type registry struct {
	mu     sync.Mutex
	byID   map[string]*entry
	active map[string]*entry // by project root; nil value: a start in progress
	wg     sync.WaitGroup    // one per run not yet done
	retain time.Duration
	onDone func(*entry)
}

func newRegistry(retain time.Duration) *registry {
	return &registry{byID: map[string]*entry{}, active: map[string]*entry{}, retain: retain}
}

// busyError is a second run asked for on a project that has one going.
func busyError(root string, e *entry) error {
	if e == nil {
		return &adapters.UsageError{Msg: fmt.Sprintf("a run on %s is starting now: wait a moment and ask again", root)}
	}
	return &adapters.UsageError{Msg: fmt.Sprintf("a run on %s is already going: runId %s, started %s ago; wait for it with debug_test_status or stop it with debug_test_cancel (at a terminal: `strobe show %s` once it ends, or Ctrl+C in the terminal that started it)",
		root, e.id, time.Since(e.started).Round(time.Second), e.id)}
}

// start runs req unless its project has a run going.
func (g *registry) start(req runner.Request, opts runner.Options, clientPID int) (*entry, error) {
	root := filepath.Clean(req.ProjectRoot)
	g.mu.Lock()
	if e, busy := g.active[root]; busy && (e == nil || !isDone(e.done)) {
		g.mu.Unlock()
		return nil, busyError(root, e)
	}
	// (A run that is done may still hold its project for a moment: the
	// answer can reach the client, and its next request come, before the
	// goroutine below clears it.)
	// Reserve the project while the request is checked, without holding
	// the lock over it.
	g.active[root] = nil
	g.mu.Unlock()

	r, err := runner.New(req, opts)
	if err != nil {
		g.mu.Lock()
		delete(g.active, root)
		g.mu.Unlock()
		return nil, err
	}
	// The run is reachable by its id while it is planned (cargo metadata,
	// xcodebuild -list can take a while): debug_test_cancel and the
	// daemon's shutdown stop the planning too.
	e := &entry{id: r.ID, framework: r.Framework(), run: r, root: root, detailsDir: opts.DetailsDir, clientPID: clientPID,
		started: time.Now(), done: r.Done()}
	g.mu.Lock()
	g.byID[r.ID] = e
	g.active[root] = e
	g.wg.Add(1)
	g.mu.Unlock()
	if err := r.Start(context.Background()); err != nil {
		g.mu.Lock()
		delete(g.byID, r.ID)
		if g.active[root] == e {
			delete(g.active, root)
		}
		g.mu.Unlock()
		g.wg.Done()
		return nil, err
	}
	go func() {
		defer g.wg.Done()
		<-r.Done()
		e.mu.Lock()
		e.finished, e.result, e.run = time.Now(), r.Result(), nil
		e.mu.Unlock()
		g.mu.Lock()
		if g.active[root] == e {
			delete(g.active, root)
		}
		onDone := g.onDone
		g.mu.Unlock()
		if onDone != nil {
			onDone(e)
		}
		time.AfterFunc(g.retain, func() {
			g.mu.Lock()
			delete(g.byID, e.id)
			g.mu.Unlock()
		})
	}()
	return e, nil
}

// isDone says whether a run's done channel is closed.
func isDone(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

func (g *registry) get(id string) *entry {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.byID[id]
}

// running counts the runs going now.
func (g *registry) running() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := 0
	for _, e := range g.active {
		if e != nil {
			n++
		}
	}
	return n
}

// cancelAll stops every run and waits for each to be reaped.
func (g *registry) cancelAll(wait time.Duration) bool {
	g.mu.Lock()
	for _, e := range g.byID {
		e.Cancel()
	}
	g.mu.Unlock()
	done := make(chan struct{})
	go func() { g.wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(wait):
		return false
	}
}

// RunInfo is one run as `strobe status` lists it.
type RunInfo struct {
	RunID       string        `json:"runId"`
	Status      report.Status `json:"status"`
	ProjectRoot string        `json:"projectRoot"`
	Framework   string        `json:"framework"`
	ClientPID   int           `json:"clientPid,omitempty"`
	Started     time.Time     `json:"started"`
	DurationMS  int64         `json:"duration_ms"`
}

// list returns the runs in memory, newest first.
func (g *registry) list() []RunInfo {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := []RunInfo{}
	for _, e := range g.byID {
		ri := RunInfo{RunID: e.id, Status: report.Running, ProjectRoot: e.root, Framework: e.framework, ClientPID: e.clientPID, Started: e.started}
		if fin := e.finishedAt(); fin.IsZero() {
			ri.DurationMS = time.Since(e.started).Milliseconds()
		} else {
			ri.Status = e.Result().Status
			ri.DurationMS = fin.Sub(e.started).Milliseconds()
		}
		out = append(out, ri)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Started.After(out[j].Started) })
	return out
}
