package daemon

import (
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
	quiet   func() // runs after the delay: Daemon.quieted, which calls freeOSMemory
	t       *time.Timer
	stopped bool
}

func newTrimmer(delay time.Duration, quiet func()) *trimmer {
	return &trimmer{delay: delay, quiet: quiet}
}

// soon schedules a trim after the delay, replacing one scheduled before.
func (m *trimmer) soon() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stopped {
		return
	}
	if m.t == nil {
		m.t = time.AfterFunc(m.delay, m.quiet)
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
