//go:build darwin

package stuck

import (
	"fmt"
	"os"
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
	known identities
}

func newMacView() View { return &macView{} }

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
		id := v.known.get(key, p.Comm, func() (id identity) {
			id.exe, _ = gp.Exe()
			id.args, _ = gp.CmdlineSlice()
			return id
		})
		snap.Procs = append(snap.Procs, macProcSample(p, cpu, id.exe, id.args))
	}
	v.known.keep(live)
	return snap, nil
}
