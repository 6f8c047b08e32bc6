package daemon

import (
	"os"
	"runtime/debug"
	"sync"
	"time"
)

// freeOSMemory is debug.FreeOSMemory; tests count its calls.
var freeOSMemory = debug.FreeOSMemory

// trimmer gives the daemon's free memory back to the system once things
// quiet down after a burst of connections or a run: a forced GC and a full
// scavenge. Left to itself, the runtime keeps the heap it grew to until its
// next GC, which an idle daemon reaches only by the forced GC every two
// minutes, and the background scavenger then returns it a little at a time.
// Each new event pushes the trim back, so a busy daemon is never trimmed
// between requests; a quiet one is trimmed once.
type trimmer struct {
	mu      sync.Mutex
	delay   time.Duration
	t       *time.Timer
	stopped bool
	// before runs first at each trim (the GC tuner's idle setting).
	before func()
}

func newTrimmer(delay time.Duration, before func()) *trimmer {
	return &trimmer{delay: delay, before: before}
}

// soon schedules a trim after the delay, replacing one scheduled before.
func (m *trimmer) soon() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stopped {
		return
	}
	if m.t == nil {
		m.t = time.AfterFunc(m.delay, func() {
			if m.before != nil {
				m.before()
			}
			freeOSMemory()
		})
		return
	}
	m.t.Reset(m.delay)
}

// stop cancels a pending trim; soon does nothing after it.
func (m *trimmer) stop() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.stopped = true
	if m.t != nil {
		m.t.Stop()
	}
}

// idleGCPercent is the daemon's GOGC while no run is going.
const idleGCPercent = 100

// gcTuner sets the daemon's garbage collection by what it does. While
// tests run, and until the daemon is trimmed after them, it keeps the
// collection every strobe process starts with (rare: see tuneGC in
// cmd/strobe): it parses their output on the cores they run on. Once
// quiet it collects as Go does by default: at the rare setting a burst of
// connections grew the heap to five times what it held before a
// collection, and the runtime's own bookkeeping for that heap stayed after
// the trim (the daemon sat 2.5 MiB above its idle size a minute after
// 1,000 connections, 1.0 MiB at this setting). Going back to the default
// as soon as a run ended cost each run a collection (0.8 ms of the
// daemon's 5.5 ms of CPU for a run of `true`). A GOGC the user set is left
// alone.
type gcTuner struct {
	mu      sync.Mutex
	runs    int
	busy    int // GOGC while a run goes: the process's setting at start
	enabled bool
	set     func(int) int // debug.SetGCPercent; tests record the calls
}

// newGCTuner starts the idle setting, unless GOGC is set.
func newGCTuner(set func(int) int) *gcTuner {
	g := &gcTuner{set: set, enabled: os.Getenv("GOGC") == ""}
	if g.enabled {
		g.busy = g.set(idleGCPercent)
	}
	return g
}

func (g *gcTuner) runStarted() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.runs++; g.runs == 1 && g.enabled {
		g.set(g.busy) // setting it again when it was not trimmed back costs nothing
	}
}

func (g *gcTuner) runEnded() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.runs--
}

// quiet is the trim's: with no run going, the idle setting.
func (g *gcTuner) quiet() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.runs == 0 && g.enabled {
		g.set(idleGCPercent)
	}
}
