package runner

import (
	"bytes"
	"os"
	"path/filepath"
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
// sweepFor has passed. The common case, nothing left, costs one pass.
func killRunID(id string) {
	entry := []byte(RunIDEnv + "=" + id + "\x00")
	inner := append([]byte{0}, entry...)
	self := os.Getpid()
	start := time.Now()
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		found := false
		dirs, _ := filepath.Glob("/proc/[0-9]*")
		for _, d := range dirs {
			pid, err := strconv.Atoi(filepath.Base(d))
			if err != nil || pid == self {
				continue
			}
			env, err := os.ReadFile(d + "/environ") // other users' fail: not ours
			if err != nil || !(bytes.HasPrefix(env, entry) || bytes.Contains(env, inner)) {
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

// sweepFor bounds killRunID: a process that SIGKILL has not ended by then
// is stuck in the kernel (state D), where no signal reaches it.
const sweepFor = 3 * time.Second
