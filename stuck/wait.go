package stuck

import (
	"fmt"
	"time"
)

// WaitKind says what a thread is doing, as far as /proc tells.
type WaitKind int

const (
	// Running: on a CPU or ready to run (state R), or in a syscall strobe
	// does not know (treated as doing work).
	Running WaitKind = iota
	// Timed: a wait that ends by itself (nanosleep; futex, poll, epoll or
	// select with a timeout).
	Timed
	// Lock: a futex wait without a timeout (a mutex, a condition variable,
	// a join, a channel receive).
	Lock
	// IO: a read, a poll or an accept with no timeout.
	IO
	// Child: waiting for a child process to exit.
	Child
	// Disk: uninterruptible sleep (state D), usually disk or NFS.
	Disk
	// Stopped: stopped or traced (state T or t).
	Stopped
)

func (k WaitKind) String() string {
	return [...]string{"running", "timed wait", "lock wait", "I/O wait", "child wait", "uninterruptible wait", "stopped"}[k]
}

// Blocked says whether a thread in this state waits for something that
// may never come.
func (k WaitKind) Blocked() bool {
	return k == Lock || k == IO || k == Child || k == Disk || k == Stopped
}

// Syscall is a thread's current system call as /proc/TID/syscall shows it.
type Syscall struct {
	Nr   int // -1 when the thread is not in a syscall
	Args [6]uint64
}

// Wait is a thread's wait, decoded from its syscall.
type Wait struct {
	Kind WaitKind
	Call string // the syscall's name, "" when unknown
	// Timeout is the wait's timeout, when Known: counted from when the
	// wait began, or, when Remaining, from the sample (an absolute
	// deadline read against its clock).
	Timeout   time.Duration
	Known     bool
	Remaining bool

	// How to read a timeout held in memory, for the view.
	Absolute    bool   // the timespec is a deadline on Clock
	Clock       int    // CLOCK_REALTIME (0) or CLOCK_MONOTONIC (1)
	TimeoutAddr uint64 // address of a timespec (or timeval); 0 when none
	TimevalAddr bool   // TimeoutAddr points at a struct timeval (select)
}

func (w Wait) String() string {
	if w.Call == "" {
		return w.Kind.String()
	}
	return fmt.Sprintf("%s in %s", w.Kind, w.Call)
}

const (
	futexWait       = 0
	futexWaitBitset = 9
	futexLockPI     = 6
	futexLockPI2    = 13
	futexWaitReq    = 11 // FUTEX_WAIT_REQUEUE_PI
	futexCmdMask    = 0x7f
	futexClockRT    = 0x100
)

// decode turns a thread's state letter and syscall into a Wait. The
// timeouts held in memory (timespecs) are filled in by the caller.
func decode(state byte, sc Syscall) Wait {
	switch state {
	case 'R':
		return Wait{Kind: Running}
	case 'D':
		return Wait{Kind: Disk, Call: nameOf(sc.Nr)}
	case 'T', 't':
		return Wait{Kind: Stopped}
	}
	if sc.Nr < 0 {
		return Wait{Kind: Running}
	}
	a := sc.Args
	name := nameOf(sc.Nr)
	w := Wait{Call: name}
	switch name {
	case "restart_syscall":
		// A timed wait (a sleep, a futex or poll with a timeout) that a
		// stop interrupted, resumed by the kernel for what was left of
		// it: strobe's own stack captures stop the process. The call and
		// its timeout are the ones sampled before (resumed); on a first
		// sample it is a timed wait of unknown end.
		w.Kind = Timed
	case "nanosleep":
		w.Kind, w.TimeoutAddr = Timed, a[0]
	case "clock_nanosleep":
		w.Kind, w.TimeoutAddr = Timed, a[2]
		if a[1]&1 != 0 { // TIMER_ABSTIME
			w.Absolute, w.Clock = true, int(a[0])
		}
	case "futex":
		switch int(a[1]) & futexCmdMask {
		case futexWait, futexWaitBitset, futexLockPI, futexLockPI2, futexWaitReq:
		default:
			return Wait{Kind: Running, Call: name} // a wake, a requeue: not a wait
		}
		if a[3] == 0 {
			w.Kind = Lock
			return w
		}
		w.Kind, w.TimeoutAddr = Timed, a[3]
		switch int(a[1]) & futexCmdMask {
		case futexWaitBitset, futexLockPI2, futexWaitReq:
			w.Absolute, w.Clock = true, 1
			if int(a[1])&futexClockRT != 0 {
				w.Clock = 0
			}
		case futexLockPI:
			w.Absolute, w.Clock = true, 0
		}
	case "futex_waitv":
		if a[3] == 0 {
			w.Kind = Lock
			return w
		}
		w.Kind, w.TimeoutAddr, w.Absolute, w.Clock = Timed, a[3], true, int(a[4])
	case "poll":
		if int32(a[2]) < 0 {
			w.Kind = IO
			return w
		}
		w.Kind, w.Timeout, w.Known = Timed, time.Duration(int32(a[2]))*time.Millisecond, true
	case "epoll_wait", "epoll_pwait":
		if int32(a[3]) < 0 {
			w.Kind = IO
			return w
		}
		w.Kind, w.Timeout, w.Known = Timed, time.Duration(int32(a[3]))*time.Millisecond, true
	case "ppoll", "epoll_pwait2":
		addr := a[2]
		if name == "epoll_pwait2" {
			addr = a[3]
		}
		if addr == 0 {
			w.Kind = IO
			return w
		}
		w.Kind, w.TimeoutAddr = Timed, addr
	case "select", "pselect6":
		if a[4] == 0 {
			w.Kind = IO
			return w
		}
		w.Kind, w.TimeoutAddr, w.TimevalAddr = Timed, a[4], name == "select"
	case "read", "readv", "pread64", "preadv", "preadv2", "recvfrom", "recvmsg", "recvmmsg",
		"accept", "accept4", "connect", "write", "writev", "sendto", "sendmsg", "msgrcv", "mq_timedreceive",
		"flock", "fcntl", "pause", "rt_sigsuspend", "rt_sigtimedwait", "sigwaitinfo", "io_getevents", "io_uring_enter":
		// Reads and writes on pipes and sockets, file locks, signals:
		// waits on something outside the thread, with no timeout of their own.
		w.Kind = IO
	case "wait4", "waitid":
		w.Kind = Child
	default:
		w.Kind = Running // an unknown syscall in S: assume it is doing something
	}
	return w
}

func nameOf(nr int) string { return syscallNames[nr] }

// resumed is a thread's wait given the one sampled before it: a
// restart_syscall continues that earlier timed wait, which a stop
// interrupted (a stack capture attaches to the process), so it is that
// wait, with what was left of a timeout counted from the earlier sample
// (Remaining) counted from at.
func resumed(w, before Wait, seen, at time.Time) Wait {
	if w.Call != "restart_syscall" || before.Kind != Timed || before.Call == "restart_syscall" && !before.Known {
		return w
	}
	if before.Remaining {
		before.Timeout = max(0, before.Timeout-at.Sub(seen))
	}
	return before
}
