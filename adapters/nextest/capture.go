package nextest

import (
	"path/filepath"
	"strings"

	"strobe/adapters"
)

// IsTestProcess for nextest: every test runs in a process of its own,
// the test binary run with --exact NAME, so that process is the test; not
// cargo, cargo-nextest, rustc or build scripts.
func (nextest) IsTestProcess(p adapters.Proc) bool {
	switch p.Name {
	case "cargo", "cargo-nextest", "rustc", "rustdoc", "cc", "ld", "env":
		return false
	}
	return !strings.HasPrefix(filepath.Base(p.Exe), "build-script-") && !isNextest(p)
}

// IsHarnessThread for nextest: libtest, in each test's process, runs the
// test on a thread named after it and waits on the main thread; and every
// thread of cargo-nextest itself, whose runtime waits with timeouts (its
// slow-timeout ticks, its signal handling) for as long as a test runs: read
// as waits that end by themselves, they would hide a deadlocked test.
func (nextest) IsHarnessThread(p adapters.Proc, tid int, name string) bool {
	return tid == p.PID || isNextest(p)
}

func isNextest(p adapters.Proc) bool {
	return p.Name == "cargo-nextest" || filepath.Base(p.Exe) == "cargo-nextest"
}
