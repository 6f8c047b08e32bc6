//go:build darwin

package stuck

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/shirou/gopsutil/v4/process"
	"golang.org/x/sys/unix"
)

// macView samples a process tree on darwin without cgo: the tree, states
// and start times from one kern.proc.all sysctl (gopsutil's Children would
// make one sysctl per process of the machine), each process's CPU time
// from gopsutil (proc_pidinfo PROC_PIDTASKINFO, reached without cgo).
// Per-thread CPU and waits are not read; see macProcSample.
//
// It is compiled by the darwin cross-build but not used yet: NewProcView
// stays the empty view on darwin until this one has run on a real Mac
// (docs/stuck.md, "macOS").
type macView struct {
	mu    sync.Mutex
	known map[ProcKey]macInfo // exe and argv, read once per process
}

type macInfo struct {
	exe  string
	args []string
}

func newMacView() View { return &macView{known: map[ProcKey]macInfo{}} }

func (v *macView) Sample(root int) (Snapshot, error) {
	snap := Snapshot{At: time.Now()}
	kps, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return snap, fmt.Errorf("listing processes: %w", err)
	}
	all := make([]macProc, 0, len(kps))
	for _, k := range kps {
		all = append(all, macProc{PID: int(k.Proc.P_pid), PPID: int(k.Eproc.Ppid),
			Start: uint64(k.Proc.P_starttime.Sec)*1e6 + uint64(k.Proc.P_starttime.Usec),
			Stat:  k.Proc.P_stat, Comm: unix.ByteSliceToString(k.Proc.P_comm[:])})
	}
	tree, ok := macTree(all, root)
	if !ok {
		return snap, os.ErrProcessDone
	}
	live := map[ProcKey]bool{}
	for _, p := range tree {
		gp := &process.Process{Pid: int32(p.PID)}
		var cpu uint64
		if t, err := gp.Times(); err == nil {
			cpu = macCPU(t.User, t.System)
		}
		key := ProcKey{PID: p.PID, Start: p.Start}
		live[key] = true
		v.mu.Lock()
		info, ok := v.known[key]
		v.mu.Unlock()
		if !ok {
			info.exe, _ = gp.Exe()
			info.args, _ = gp.CmdlineSlice()
			v.mu.Lock()
			v.known[key] = info
			v.mu.Unlock()
		}
		snap.Procs = append(snap.Procs, macProcSample(p, cpu, info.exe, info.args))
	}
	v.mu.Lock()
	for k := range v.known {
		if !live[k] {
			delete(v.known, k)
		}
	}
	v.mu.Unlock()
	return snap, nil
}
