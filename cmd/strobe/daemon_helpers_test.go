package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"strobe/daemon"
)

// homes holds each test's STROBE_HOME, so every test has a daemon of its
// own and parallel tests never share one.
var homes sync.Map // *testing.T → string

// strobeHome is t's STROBE_HOME: short (a Unix socket path has at most 107
// bytes), removed at the end, after the daemon in it is stopped.
func strobeHome(t *testing.T) string {
	t.Helper()
	if h, ok := homes.Load(t); ok {
		return h.(string)
	}
	base := os.TempDir()
	if len(base) > 40 {
		base = "/tmp"
	}
	h, err := os.MkdirTemp(base, "sh")
	if err != nil {
		t.Fatal(err)
	}
	homes.Store(t, h)
	t.Cleanup(func() {
		stopDaemon(t, h)
		os.RemoveAll(h)
		homes.Delete(t)
	})
	return h
}

func homePaths(t *testing.T, home string) daemon.Paths {
	t.Helper()
	p, err := daemon.PathsIn(home)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// stopDaemon stops the daemon of home, if one runs, and checks that it and
// its reaper are gone.
func stopDaemon(t *testing.T, home string) {
	t.Helper()
	pid := daemon.LockHolder(homePaths(t, home))
	cmd := exec.Command(strobeBin, "stop")
	cmd.Env = append(os.Environ(), "STROBE_HOME="+home)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("strobe stop: %v\n%s", err, out)
	}
	if pid > 0 && !gone(pid, 10*time.Second) {
		t.Errorf("daemon pid %d still running after strobe stop", pid)
		syscall.Kill(pid, syscall.SIGKILL)
	}
	for _, r := range reapers(pid) {
		if !gone(r, 5*time.Second) {
			t.Errorf("reaper pid %d of daemon %d still running", r, pid)
			syscall.Kill(r, syscall.SIGKILL)
		}
	}
}

// reapers are the `strobe daemon --reap-for pid` processes.
func reapers(pid int) []int {
	if pid <= 0 {
		return nil
	}
	var out []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		b, _ := os.ReadFile(d + "/cmdline")
		if strings.Contains(string(b), daemon.ReapFlag+"\x00"+strconv.Itoa(pid)+"\x00") {
			p, _ := strconv.Atoi(filepath.Base(d))
			out = append(out, p)
		}
	}
	return out
}

// gone waits until pid has exited (a zombie counts as gone).
func gone(pid int, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for {
		if !running(pid) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}

// daemonHWM is the peak resident memory of t's daemon, 0 without one.
func daemonHWM(t *testing.T) int64 {
	h, ok := homes.Load(t)
	if !ok {
		return 0
	}
	pid := daemon.LockHolder(homePaths(t, h.(string)))
	if pid <= 0 {
		return 0
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb * 1024
		}
	}
	return 0
}
