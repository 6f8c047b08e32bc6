package runner

import (
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// guardAfter is how long a command runs before its guard starts: most runs
// end sooner and pay for no extra process. A variable for the tests.
var guardAfter = time.Second

// guardScript is the guard: a shell that waits on a pipe whose write end
// only strobe holds. "done" means the run ended and was swept. End of file
// means strobe died first (SIGKILL, the OOM killer, a harness's hard
// timeout), and nothing else would end what the run left: Pdeathsig reaches
// the command's own process only, and `cargo test`'s test binaries, a
// shell's children or a build's workers are its children. The guard kills
// the run's process group, then every process that carries the run id in
// its environment (the sweep that strobe makes after every run).
const guardScript = `read v
[ "$v" = done ] && exit 0
kill -KILL -- "-$1" 2>/dev/null
for p in /proc/[0-9]*; do
	grep -qsxzF "$2" "$p/environ" && kill -KILL "${p#/proc/}" 2>/dev/null
done
exit 0`

// guard ends a run's processes if strobe dies before the run ends.
type guard struct {
	mu    sync.Mutex
	timer *time.Timer
	w     *os.File      // the pipe's write end, once the guard runs
	gone  chan struct{} // closed once the guard is reaped
	ended bool
}

// newGuard starts the guard of the run whose process group is pgid once
// the command has run for guardAfter.
func newGuard(pgid int, runID string) *guard {
	g := &guard{}
	g.timer = time.AfterFunc(guardAfter, func() { g.start(pgid, runID) })
	return g
}

func (g *guard) start(pgid int, runID string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ended {
		return
	}
	r, w, err := os.Pipe() // close-on-exec: the run's processes do not hold it
	if err != nil {
		return
	}
	defer r.Close()
	cmd := exec.Command("/bin/sh", "-c", guardScript, "strobe-guard", strconv.Itoa(pgid), RunIDEnv+"="+runID)
	cmd.Stdin = r
	// Its own environment, without the run id, so its sweep spares it;
	// its own process group, so a terminal's Ctrl+C, which strobe handles,
	// does not end it first.
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		return // no guard: the run goes on as before
	}
	g.w, g.gone = w, make(chan struct{})
	go func() {
		cmd.Wait()
		close(g.gone)
	}()
}

// end tells the guard that the run is over and swept: it exits without
// killing anything. end waits for that (briefly), so that a strobe that
// exits next leaves no zombie to an init that reaps none (a container's).
func (g *guard) end() {
	if g == nil {
		return // a reaped run's
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.ended = true
	g.timer.Stop()
	if g.w == nil {
		return
	}
	g.w.WriteString("done\n")
	g.w.Close()
	g.w = nil
	select {
	case <-g.gone:
	case <-time.After(time.Second):
	}
}
