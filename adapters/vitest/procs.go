package vitest

import (
	"path/filepath"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
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
	return isVitestMain(p) && !kit.HasChild(p.PID, func(args []string) bool { return isFork("", args) })
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
