package stuck

import (
	"bytes"
	"encoding/binary"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// procView samples a tree from /proc. The tree comes from
// /proc/PID/task/TID/children of every task, a few small reads per
// process; walking all of /proc (gopsutil's Children) costs a hundred
// times more on a busy machine.
type procView struct {
	known identities
}

// NewProcView returns the /proc view of process trees.
func NewProcView() View { return &procView{} }

func (v *procView) Sample(root int) (Snapshot, error) {
	snap := Snapshot{At: time.Now()}
	seen := map[int]bool{}
	queue := []int{root}
	live := map[ProcKey]bool{}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		p, children, ok := v.process(pid)
		if !ok {
			if pid == root {
				return snap, os.ErrProcessDone
			}
			continue
		}
		live[p.ProcKey] = true
		snap.Procs = append(snap.Procs, p)
		queue = append(queue, children...)
	}
	v.known.keep(live)
	return snap, nil
}

func (v *procView) process(pid int) (ProcSample, []int, bool) {
	dir := "/proc/" + strconv.Itoa(pid)
	st, ok := readStat(dir + "/stat")
	if !ok || st.state == 'Z' || st.state == 'X' {
		return ProcSample{}, nil, false
	}
	p := ProcSample{ProcKey: ProcKey{PID: pid, Start: st.start}, PPID: st.ppid, Name: st.comm, MinFlt: st.minflt,
		ChildNS: (st.cutime + st.cstime) * uint64(time.Second/clockTicks)}
	if boot := bootTime(); !boot.IsZero() {
		p.Started = boot.Add(time.Duration(st.start) * (time.Second / clockTicks))
	}
	id := v.known.get(p.ProcKey, p.Name, func() (id identity) {
		id.exe, _ = os.Readlink(dir + "/exe")
		if b, err := os.ReadFile(dir + "/cmdline"); err == nil {
			id.args = strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
		}
		return id
	})
	p.Exe, p.Args = id.exe, id.args
	p.TracerPID = TracerPID(pid) // a debugger's stops are not waits (traced.go)
	tasks, err := os.ReadDir(dir + "/task")
	if err != nil {
		return ProcSample{}, nil, false
	}
	var children []int
	var mem *os.File
	defer func() {
		if mem != nil {
			mem.Close()
		}
	}()
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		tdir := dir + "/task/" + t.Name()
		if b, err := os.ReadFile(tdir + "/children"); err == nil {
			for _, f := range strings.Fields(string(b)) {
				if c, err := strconv.Atoi(f); err == nil {
					children = append(children, c)
				}
			}
		}
		ts, ok := readStat(tdir + "/stat")
		if !ok {
			continue // exited between the listing and now
		}
		th := ThreadSample{TID: tid, Name: ts.comm, State: ts.state}
		if b, err := os.ReadFile(tdir + "/schedstat"); err == nil {
			f := strings.Fields(string(b))
			if len(f) >= 3 {
				th.RunNS, _ = strconv.ParseUint(f[0], 10, 64)
				th.Slices, _ = strconv.ParseUint(f[2], 10, 64)
			}
		} else {
			th.RunNS = (ts.utime + ts.stime) * uint64(time.Second/clockTicks)
		}
		sc, ok := readSyscall(tdir + "/syscall")
		if !ok {
			// Not permitted (another user, Yama): nothing says it waits,
			// so nothing may call it stuck.
			th.Wait = Wait{Kind: Running}
		} else {
			th.Wait = decode(th.State, sc)
			if th.Wait.TimeoutAddr != 0 {
				if mem == nil {
					mem, _ = os.Open(dir + "/mem")
				}
				resolveTimeout(&th.Wait, mem)
			}
		}
		p.Threads = append(p.Threads, th)
	}
	return p, children, true
}

// clockTicks is USER_HZ, 100 on every Linux strobe runs on.
const clockTicks = 100

// bootTime is when the machine booted, on the wall clock, from
// /proc/uptime; zero when it cannot be read.
var bootTime = sync.OnceValue(func() time.Time {
	b, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return time.Time{}
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return time.Time{}
	}
	up, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return time.Time{}
	}
	return time.Now().Add(-time.Duration(up * float64(time.Second)))
})

type stat struct {
	comm                string
	state               byte
	ppid                int
	utime, stime, start uint64
	minflt              uint64
	cutime, cstime      uint64 // its waited-for children's
}

// readStat reads /proc/.../stat; comm may hold spaces and parentheses, so
// the fields after it are found from the last ')'.
func readStat(path string) (stat, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return stat{}, false
	}
	open, close := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || close < open {
		return stat{}, false
	}
	f := strings.Fields(string(b[close+1:]))
	if len(f) < 20 {
		return stat{}, false
	}
	s := stat{comm: string(b[open+1 : close]), state: f[0][0]}
	s.ppid, _ = strconv.Atoi(f[1])
	s.minflt, _ = strconv.ParseUint(f[7], 10, 64)
	s.utime, _ = strconv.ParseUint(f[11], 10, 64)
	s.stime, _ = strconv.ParseUint(f[12], 10, 64)
	s.cutime, _ = strconv.ParseUint(f[13], 10, 64)
	s.cstime, _ = strconv.ParseUint(f[14], 10, 64)
	s.start, _ = strconv.ParseUint(f[19], 10, 64)
	return s, true
}

// readSyscall reads /proc/TID/syscall: "running", "-1 sp pc" (not in a
// syscall) or "NR a1 … a6 sp pc".
func readSyscall(path string) (Syscall, bool) {
	b, err := os.ReadFile(path)
	if err != nil || len(b) == 0 {
		return Syscall{}, false
	}
	f := strings.Fields(string(b))
	if f[0] == "running" {
		return Syscall{Nr: -1}, true
	}
	nr, err := strconv.Atoi(f[0])
	if err != nil {
		return Syscall{}, false
	}
	sc := Syscall{Nr: nr}
	if nr < 0 {
		return sc, true
	}
	for i := 0; i < 6 && i+1 < len(f); i++ {
		sc.Args[i], _ = strconv.ParseUint(strings.TrimPrefix(f[i+1], "0x"), 16, 64)
	}
	return sc, true
}

// resolveTimeout reads a wait's timespec (or timeval) from the process's
// memory. Reading needs the same permission as ptrace; without it the
// timeout stays unknown, and an unknown timeout counts as one that ends.
func resolveTimeout(w *Wait, mem *os.File) {
	if mem == nil {
		w.TimeoutAddr = 0
		return
	}
	var buf [16]byte
	if _, err := mem.ReadAt(buf[:], int64(w.TimeoutAddr)); err != nil {
		w.TimeoutAddr = 0
		return
	}
	sec := int64(binary.LittleEndian.Uint64(buf[0:8]))
	frac := int64(binary.LittleEndian.Uint64(buf[8:16]))
	if w.TimevalAddr {
		frac *= 1000 // microseconds
	}
	ns := sec*int64(time.Second) + frac
	if w.Absolute {
		var now unix.Timespec
		clock := unix.CLOCK_MONOTONIC
		if w.Clock == 0 {
			clock = unix.CLOCK_REALTIME
		}
		unix.ClockGettime(int32(clock), &now)
		w.Timeout = time.Duration(ns - now.Nano())
		if w.Timeout < 0 {
			w.Timeout = 0
		}
		w.Absolute = false
		w.Remaining = true
	} else {
		w.Timeout = time.Duration(ns)
	}
	w.TimeoutAddr = 0
	w.Known = true
}
