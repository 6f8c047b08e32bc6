package kit

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

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
