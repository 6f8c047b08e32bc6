package stuck

// What darwin tells about a process tree without cgo, and how it becomes
// the detector's samples. The reading itself (proc_darwin.go) only builds
// on darwin; this part builds everywhere so that its tests run on Linux.

// macProc is one process as darwin's kern.proc.all sysctl lists it.
type macProc struct {
	PID, PPID int
	// Start is the process's start time in microseconds since the epoch:
	// with the pid it names the process for as long as it lives.
	Start uint64
	Stat  int8 // p_stat
	Comm  string
}

// p_stat values of <sys/proc.h>.
const (
	macSIDL   = 1 // being created
	macSRUN   = 2
	macSSLEEP = 3
	macSSTOP  = 4
	macSZOMB  = 5
)

// macTree picks root and its descendants out of the whole process list,
// root first, then breadth first. ok is false when root is gone (missing
// or a zombie); exited descendants are left out.
func macTree(all []macProc, root int) (tree []macProc, ok bool) {
	byPID := make(map[int]macProc, len(all))
	children := make(map[int][]int)
	for _, p := range all {
		byPID[p.PID] = p
		if p.PID != p.PPID { // launchd (pid 1) and the kernel (0) are their own roots
			children[p.PPID] = append(children[p.PPID], p.PID)
		}
	}
	if p, found := byPID[root]; !found || p.Stat == macSZOMB {
		return nil, false
	}
	seen := map[int]bool{}
	for queue := []int{root}; len(queue) > 0; queue = queue[1:] {
		pid := queue[0]
		p := byPID[pid]
		if seen[pid] || p.Stat == macSZOMB {
			continue
		}
		seen[pid] = true
		tree = append(tree, p)
		queue = append(queue, children[pid]...)
	}
	return tree, true
}

// macState is the detector's state letter for a p_stat. macOS keeps most
// live processes SRUN whether on a CPU or not, so the letter says little;
// the CPU time decides.
func macState(stat int8) byte {
	switch stat {
	case macSSLEEP:
		return 'S'
	case macSSTOP:
		return 'T'
	case macSZOMB:
		return 'Z'
	}
	return 'R'
}

// macProcSample is a process's sample. Without per-thread information
// (PROC_PIDTHREADINFO needs libproc through cgo or a hand-made dlopen) the
// process is one thread carrying the whole task's CPU time. Its wait is
// Running, because nothing tells what it waits for: as on Linux when
// /proc/TID/syscall cannot be read, nothing may call it blocked, so a
// deadlock or an I/O wait is never a verdict here; the hard timeout decides.
func macProcSample(p macProc, cpuNS uint64, exe string, args []string) ProcSample {
	return ProcSample{
		ProcKey: ProcKey{PID: p.PID, Start: p.Start},
		PPID:    p.PPID,
		Name:    p.Comm,
		Exe:     exe,
		Args:    args,
		Threads: []ThreadSample{{TID: p.PID, Name: p.Comm, State: macState(p.Stat), RunNS: cpuNS, Wait: Wait{Kind: Running}}},
	}
}

// macCPU turns gopsutil's user and system seconds into nanoseconds.
func macCPU(user, system float64) uint64 {
	if t := user + system; t > 0 {
		return uint64(t * 1e9)
	}
	return 0
}
