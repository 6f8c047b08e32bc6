package daemon

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// OwnerEnv marks every test process with the pid of the daemon that runs
// it. The runner's own cleanup needs a live daemon; when the daemon is
// SIGKILLed, the reaper (and the next daemon) find its processes by this
// mark and kill them: a dead daemon leaves no test behind.
const OwnerEnv = "STROBE_DAEMON"

// ReapFlag is the hidden flag of `strobe daemon` that makes it the reaper of
// the daemon whose pid follows.
const ReapFlag = "--reap-for"

// Reap kills every process of this user marked as run by the daemon pid
// (with its process group). It returns how many it killed.
func Reap(pid int) int {
	return sweep(func(owner int) bool { return owner == pid })
}

// reapOrphans kills the processes of daemons that are gone.
func reapOrphans() int {
	self := os.Getpid()
	return sweep(func(owner int) bool { return owner != self && syscall.Kill(owner, 0) != nil })
}

func sweep(match func(owner int) bool) int {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	uid := os.Getuid()
	mark := []byte(OwnerEnv + "=")
	n := 0
	for _, d := range dirs {
		fi, err := os.Stat(d)
		if err != nil {
			continue
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != uid {
			continue
		}
		env, err := os.ReadFile(d + "/environ")
		if err != nil {
			continue
		}
		i := bytes.Index(env, mark)
		if i < 0 || (i > 0 && env[i-1] != 0) {
			continue
		}
		val := env[i+len(mark):]
		if j := bytes.IndexByte(val, 0); j >= 0 {
			val = val[:j]
		}
		owner, err := strconv.Atoi(string(val))
		if err != nil || !match(owner) {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(d))
		if pid == os.Getpid() {
			continue
		}
		if pgid, err := syscall.Getpgid(pid); err == nil && pgid == pid {
			syscall.Kill(-pgid, syscall.SIGKILL)
		}
		syscall.Kill(pid, syscall.SIGKILL)
		n++
	}
	return n
}
