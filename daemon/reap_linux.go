package daemon

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"
)

// startReaper starts `strobe daemon --reap-for <our pid>` with a parent-death
// signal: when this daemon dies by any means, the kernel sends the reaper
// SIGTERM, and it kills what this daemon left running. The forking thread
// stays locked for the daemon's life (Pdeathsig follows the forking thread,
// golang/go#27505). It says whether the reaper runs.
func startReaper() (bool, error) {
	exe, err := os.Executable()
	if err != nil {
		return false, err
	}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread lives as long as the daemon
		cmd := exec.Command(exe, "daemon", ReapFlag, strconv.Itoa(os.Getpid()))
		cmd.Dir = "/"
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM, Setpgid: true}
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		cmd.Wait()
	}()
	err = <-started
	return err == nil, err
}
