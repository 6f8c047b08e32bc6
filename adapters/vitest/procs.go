package vitest

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"strobe/adapters"
)

// IsTestProcess for vitest: the fork children of pool "forks" (the
// default), which vitest titles "node (vitest N)", and vitest's own
// process ("node (vitest)", or, untitled, a node whose arguments run
// vitest) while it has no fork: with pool "threads" it runs the tests
// itself; beside its forks it only waits for them, and a child a test
// starts is the fork's. esbuild's service and the npm/npx launchers are
// not test processes.
func (vitest) IsTestProcess(p adapters.Proc) bool {
	if isFork(p.Name, p.Args) {
		return true
	}
	return isVitestMain(p) && !hasForks(p.PID)
}

// IsHarnessThread: esbuild's service, which vitest starts (vite's
// transforms) and talks to through pipes, is vitest's, not a child a
// test waits for.
func (vitest) IsHarnessThread(p adapters.Proc, tid int, name string) bool {
	return p.Name == "esbuild" || len(p.Args) > 0 && filepath.Base(p.Args[0]) == "esbuild"
}

// isFork recognises a fork of vitest's pool by its title.
func isFork(name string, args []string) bool {
	return strings.HasPrefix(name, "node (vitest ") || len(args) > 0 && strings.HasPrefix(args[0], "node (vitest ")
}

func isVitestMain(p adapters.Proc) bool {
	if p.Name == "node (vitest)" || len(p.Args) > 0 && p.Args[0] == "node (vitest)" {
		return true
	}
	if p.Name != "node" {
		return false
	}
	for _, a := range p.Args {
		if strings.Contains(a, "vitest") && !strings.Contains(a, "esbuild") {
			return true
		}
	}
	return false
}

// hasForks says whether vitest's process has forks of its pool among its
// children (read from /proc on Linux).
func hasForks(pid int) bool {
	if runtime.GOOS != "linux" || pid == 0 {
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
			if err == nil && isFork("", strings.Split(string(cmd), "\x00")) {
				return true
			}
		}
	}
	return false
}
