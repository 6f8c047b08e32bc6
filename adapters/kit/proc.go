package kit

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
)

// Alive reports whether pid runs; a zombie (an exited process whose
// parent has not reaped it) does not.
func Alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}

// HasChild says whether one of pid's children has a command line match
// takes (a test runner's worker), from /proc (Linux). Elsewhere it cannot
// say and answers false.
func HasChild(pid int, match func(args []string) bool) bool {
	if runtime.GOOS != "linux" {
		return false
	}
	tasks, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "children"))
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, child := range strings.Fields(string(b)) {
			cmd, err := os.ReadFile(filepath.Join("/proc", child, "cmdline"))
			if err == nil && match(strings.Split(string(cmd), "\x00")) {
				return true
			}
		}
	}
	return false
}

// ParentArgs is the command line of pid's parent, from /proc (Linux);
// false when it cannot be read (elsewhere, or the process is gone).
func ParentArgs(pid int) ([]string, bool) {
	if runtime.GOOS != "linux" {
		return nil, false
	}
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return nil, false
	}
	// pid (comm) state ppid …: comm may hold spaces and parentheses.
	i := strings.LastIndexByte(string(stat), ')')
	f := strings.Fields(string(stat[i+1:]))
	if i < 0 || len(f) < 2 {
		return nil, false
	}
	cmd, err := os.ReadFile(filepath.Join("/proc", f[1], "cmdline"))
	if err != nil {
		return nil, false
	}
	return strings.Split(strings.TrimSuffix(string(cmd), "\x00"), "\x00"), true
}
