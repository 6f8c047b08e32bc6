package stuck

import "time"

// ProcKey names a process for as long as it lives: a pid alone may be
// reused, a pid with its start time is not.
type ProcKey struct {
	PID   int
	Start uint64 // clock ticks after boot, /proc/PID/stat field 22
}

// ThreadSample is one thread at one instant.
type ThreadSample struct {
	TID   int
	Name  string
	State byte   // R, S, D, T, t, Z, ...
	RunNS uint64 // CPU time so far, nanoseconds
	// Slices counts the times the thread was scheduled: a thread that
	// sits in the same wait across samples while Slices grows wakes up
	// and goes back to sleep (a ticker), which is not progress.
	Slices uint64
	Wait   Wait
}

// ProcSample is one process of the tree at one instant.
type ProcSample struct {
	ProcKey
	PPID    int
	Name    string
	Exe     string
	Args    []string
	Threads []ThreadSample
	// TracerPID is the process that ptraces this one (a debugger of a
	// traced run), 0 for none.
	TracerPID int
	// Started is when the process started; zero when unknown.
	Started time.Time
	// MinFlt counts the pages the process touched for the first time
	// (minor faults): its memory growing. 0 where unknown.
	MinFlt uint64
	// ChildNS is the CPU time of its children that ended and were waited
	// for (cutime and cstime), in ns: the work of processes too short-lived
	// to be sampled (a shell script's commands). 0 where unknown.
	ChildNS uint64
}

// Snapshot is the whole tree at one instant.
type Snapshot struct {
	At    time.Time
	Procs []ProcSample
}

// View samples a process tree. The real one reads /proc; tests give a
// scripted one.
type View interface {
	Sample(root int) (Snapshot, error)
}

// Clock tells the time. Tests give a fake one so that they never sleep.
type Clock interface {
	Now() time.Time
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }
