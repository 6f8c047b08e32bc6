package jest

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"strobe/adapters"
)

// IsTestProcess for jest: its workers (jest-worker's processChild.js) run
// the test files when jest runs several at once; in band (-i, or a run
// jest judged small) its main process runs them itself. The main process
// is a test process only while it has no worker: beside workers it only
// waits for them, and its waits say nothing about the tests.
func (jest) IsTestProcess(p adapters.Proc) bool {
	if isWorker(p.Args) {
		return true
	}
	if !isJestMain(p.Args) {
		return p.Name != "npm" && p.Name != "npx" && p.Name != "sh"
	}
	return !hasWorkers(p.PID)
}

func isWorker(args []string) bool {
	for _, a := range args {
		if strings.Contains(a, "jest-worker") && strings.Contains(filepath.Base(a), "processChild") {
			return true
		}
	}
	return false
}

// isJestMain recognises jest's own process: node running
// node_modules/.bin/jest (or jest's and jest-cli's bin/jest.js).
func isJestMain(args []string) bool {
	for i, a := range args {
		if i > 1 {
			break
		}
		if b := filepath.Base(a); b == "jest" || (b == "jest.js" && strings.Contains(a, "jest")) {
			return true
		}
	}
	return false
}

// hasWorkers says whether a process has jest workers among its children,
// from /proc (Linux). Elsewhere it cannot say and answers false: the main
// process is then judged with its workers.
func hasWorkers(pid int) bool {
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
			if err == nil && isWorker(strings.Split(string(cmd), "\x00")) {
				return true
			}
		}
	}
	return false
}
