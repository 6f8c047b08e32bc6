package daemon

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"runtime"
	"syscall"
	"time"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"
)

// A daemon that has served many connections at once restarts in place once
// it is quiet again: it executes its own program anew, in the same process,
// handing the listening socket and the lock to the new image. Go's runtime
// never gives back what a burst of sessions made it grow (goroutine
// descriptors, the allocator's and the collector's metadata, sized by the
// heap's peak: about 2 MiB over idle a minute after 1,000 sessions, which no
// GC setting returned, docs/perf.md); a fresh image starts at the idle
// size. Nothing is lost: the restart waits until no connection is open and
// no run is going, finished runs are read back from their details files and
// traces from theirs, and connections that arrive meanwhile wait in the
// socket's backlog for the new image. The pid stays, and so does the
// reaper, which watches the pid.

// restartAt is how many connections open at once call for a restart once
// they have all closed: agents hold one connection per session and
// `strobe test` one per run, so a machine in ordinary use stays below it.
const restartAt = 16

// handoffEnv carries the handoff to the new image; the new image removes it
// from its environment, so no run inherits it.
const handoffEnv = "STROBE_DAEMON_HANDOFF"

// handoff is what an image hands to the next.
type handoff struct {
	Listener int       `json:"listener"` // the socket's listening descriptor
	Lock     int       `json:"lock"`     // strobe.lock's descriptor, locked
	Reaped   bool      `json:"reaped"`   // a reaper watches this pid already
	Started  time.Time `json:"started"`  // the first image's start
	Active   time.Time `json:"active"`   // the last request, for the idle limit
	Restarts int       `json:"restarts"`
}

// takeHandoff returns the listener and the lock handed over by the image
// before this one, or nils when this image is the first.
func takeHandoff(p Paths) (*handoff, *net.UnixListener, *os.File, error) {
	v, ok := os.LookupEnv(handoffEnv)
	if !ok {
		return nil, nil, nil, nil
	}
	os.Unsetenv(handoffEnv)
	var h handoff
	if err := json.Unmarshal([]byte(v), &h); err != nil || h.Listener < 3 || h.Lock < 3 || h.Listener == h.Lock {
		return nil, nil, nil, fmt.Errorf("%s=%q is not a daemon's handoff: unset it and start the daemon again", handoffEnv, v)
	}
	// The lock first: it must be strobe.lock, and ours.
	lock := os.NewFile(uintptr(h.Lock), p.Lock)
	unix.CloseOnExec(h.Lock)
	var held, want unix.Stat_t
	if unix.Fstat(h.Lock, &held) != nil || unix.Stat(p.Lock, &want) != nil || held.Dev != want.Dev || held.Ino != want.Ino ||
		unix.Flock(h.Lock, unix.LOCK_EX|unix.LOCK_NB) != nil {
		lock.Close()
		unix.Close(h.Listener)
		return nil, nil, nil, fmt.Errorf("the handoff's descriptor %d is not %s held by this process: start the daemon again", h.Lock, p.Lock)
	}
	f := os.NewFile(uintptr(h.Listener), p.Socket)
	l, err := net.FileListener(f) // a duplicate, close-on-exec
	f.Close()
	ul, ok := l.(*net.UnixListener)
	if err != nil || !ok {
		if l != nil {
			l.Close()
		}
		lock.Close()
		return nil, nil, nil, fmt.Errorf("the handoff's descriptor %d is not the daemon's socket (%v): start the daemon again", h.Listener, err)
	}
	ul.SetUnlinkOnClose(true) // as a listener of its own would
	return &h, ul, lock, nil
}

// restartDue says whether the daemon should restart now: it has served
// restartAt connections at once, none is open and no run is going.
func (d *Daemon) restartDue() bool {
	return d.restartable.Load() && d.peak.Load() >= int64(d.restartAt()) && d.open.Load() == 0 && d.reg.running() == 0
}

func (d *Daemon) restartAt() int {
	if d.opts.restartAt != 0 {
		return d.opts.restartAt
	}
	return restartAt
}

// restart executes the daemon's program again with ln and lock handed
// over. It returns only if that fails, with ln and lock as they were.
func (d *Daemon) restart(ln *net.UnixListener, lock *os.File) error {
	raw, err := ln.SyscallConn()
	if err != nil {
		return err
	}
	lfd := -1
	raw.Control(func(fd uintptr) { lfd = int(fd) })
	h := handoff{Listener: lfd, Lock: int(lock.Fd()), Reaped: d.reaped, Started: d.started,
		Active: time.Unix(0, d.lastActive.Load()), Restarts: d.restarts + 1}
	b, err := json.Marshal(h)
	if err != nil {
		return err
	}
	fds := []int{h.Listener, h.Lock}
	defer func() {
		for _, fd := range fds {
			unix.CloseOnExec(fd)
		}
	}()
	for _, fd := range fds {
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFD, 0); err != nil {
			return fmt.Errorf("keeping descriptor %d open across exec: %w", fd, err)
		}
	}
	d.log.Info("restarting in place to give back the memory of a burst", zap.Int64("peakConnections", d.peak.Load()), zap.Int("restarts", h.Restarts))
	d.log.Sync()
	exec := d.opts.exec
	if exec == nil {
		exec = execSelf
	}
	return exec(append(os.Environ(), handoffEnv+"="+string(b)))
}

// execSelf executes this process's program again, with its arguments.
func execSelf(env []string) error {
	exe := "/proc/self/exe" // the program this process runs, even if replaced on disk since
	if runtime.GOOS != "linux" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return err
		}
	}
	return syscall.Exec(exe, os.Args, env)
}
