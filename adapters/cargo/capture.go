package cargo

import (
	"path/filepath"
	"strings"
	"strobe/adapters"
)

// IsTestProcess for cargo: the test binaries, which cargo starts through
// its runner (sh, which execs them, or waits for a custom harness to
// print its end marker, itself or through perl: customScript), not cargo,
// rustc or build scripts.
func (cargo) IsTestProcess(p adapters.Proc) bool {
	switch p.Name {
	case "cargo", "rustc", "env", "sh", "perl", "rustdoc", "cc", "ld":
		return false
	}
	return !strings.HasPrefix(filepath.Base(p.Exe), "build-script-")
}

// IsHarnessThread for cargo: libtest runs each test on a thread named
// after it and waits on the main thread, with a timeout, for their results.
func (cargo) IsHarnessThread(p adapters.Proc, tid int, name string) bool { return tid == p.PID }
