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
	return !strings.HasPrefix(filepath.Base(p.Exe), "build-script-") && filepath.Base(p.Exe) != "cargo-nextest"
}

// IsHarnessThread for nextest: libtest, in each test's process, runs the
// test on a thread named after it and waits on the main thread.
func (nextest) IsHarnessThread(p adapters.Proc, tid int, name string) bool { return tid == p.PID }
