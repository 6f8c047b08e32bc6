package runner

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

func sysProcAttr() *syscall.SysProcAttr {
	// Own process group: one signal reaches every process of the run, and
	// the terminal's Ctrl+C reaches strobe only, which stops the run itself.
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killRunID kills every process whose environment carries this run's id:
// grandchildren that left the process group (setsid, daemonized servers)
// must not outlive the run. Killing may let a parent spawn again before it
// dies, and a killed process keeps its environment until the kernel has
// scheduled its exit (on a loaded machine, tens of milliseconds), so it
// repeats, waiting a little longer each time, until a pass finds nothing or
// sweepFor has passed. The common case, nothing left, costs one pass over
// the processes in w (all when w cannot tell).
func killRunID(id string, w pidWindow) {
	entry := []byte(RunIDEnv + "=" + id + "\x00")
	inner := append([]byte{0}, entry...)
	self := os.Getpid()
	start := time.Now()
	buf := make([]byte, 16<<10)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		found := false
		in := w.filter()
		for _, pid := range pids() {
			if pid == self || in != nil && !in(pid) {
				continue
			}
			var env []byte
			env, buf = readEnviron(pid, buf) // other users' fail: not ours
			if !(bytes.HasPrefix(env, entry) || bytes.Contains(env, inner)) {
				continue
			}
			syscall.Kill(pid, syscall.SIGKILL)
			found = true
		}
		if !found || time.Since(start) > sweepFor {
			return
		}
		time.Sleep(wait)
	}
}

// pids lists the processes in /proc.
func pids() []int {
	f, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	out := make([]int, 0, len(names))
	for _, n := range names {
		if n[0] < '0' || n[0] > '9' {
			continue
		}
		if pid, err := strconv.Atoi(n); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// readEnviron reads process pid's environment into buf, grown when it is
// too small: the sweep reads ~150 of them per run, and os.ReadFile's stat
// and allocation for each cost more than the reads.
func readEnviron(pid int, buf []byte) (env, grown []byte) {
	fd, err := syscall.Open("/proc/"+strconv.Itoa(pid)+"/environ", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, buf
	}
	defer syscall.Close(fd)
	n := 0
	for {
		if n == len(buf) {
			buf = append(buf, make([]byte, len(buf))...)
		}
		m, err := syscall.Read(fd, buf[n:])
		if m <= 0 || err != nil {
			return buf[:n], buf
		}
		n += m
	}
}

// sweepFor bounds killRunID: a process that SIGKILL has not ended by then
// is stuck in the kernel (state D), where no signal reaches it.
const sweepFor = 3 * time.Second
